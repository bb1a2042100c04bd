#!/bin/bash
set -euo pipefail
cp /solution/fselect.py /app/fselect
chmod +x /app/fselect
/app/fselect /srv/data /app/backup.rules > /app/selection.txt
cat /app/selection.txt
