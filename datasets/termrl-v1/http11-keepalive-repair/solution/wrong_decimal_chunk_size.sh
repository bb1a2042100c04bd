#!/bin/bash
# Partial fix: chunk extensions and trailers handled, but chunk sizes are still read as decimal numbers.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/                size = int(text, 16)/                size = int(text)/' /app/httpd/tinyhttpd.py
grep -q 'size = int(text)$' /app/httpd/tinyhttpd.py
