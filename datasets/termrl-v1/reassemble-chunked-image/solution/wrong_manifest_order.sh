#!/bin/bash
# Mistake: concatenates chunks in the order they are listed in the manifest instead of by index.
set -euo pipefail
sed 's/for c in sorted(m\["chunks"\], key=lambda c: c\["index"\]):/for c in m["chunks"]:/; s/^assert len(data).*$//' /solution/solve.sh > /tmp/s.sh
bash /tmp/s.sh
