#!/bin/bash
# Writes the staging path (DESTDIR + PREFIX) into kv.pc instead of the final PREFIX.
set -euo pipefail
bash /solution/solve.sh
cd /app
sed -i "s/-e 's|@PREFIX@|\$(PREFIX)|'/-e 's|@PREFIX@|\$(D)|'/" Makefile
grep -q "@PREFIX@|\$(D)|" Makefile
