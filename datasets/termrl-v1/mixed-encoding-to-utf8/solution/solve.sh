#!/bin/bash
set -euo pipefail
cp /solution/to_utf8.py /app/to-utf8
chmod +x /app/to-utf8
/app/to-utf8 /srv/docs > /app/docs-report.txt
cat /app/docs-report.txt
