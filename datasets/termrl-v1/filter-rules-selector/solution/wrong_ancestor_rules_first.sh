#!/bin/bash
# Mistake: merge-file rules are stacked in reading order, parents before children, so a deeper
# directory's rules cannot override its ancestors'.
set -euo pipefail
sed 's/        res = own + (\[\] if cleared else inherited)/        res = ([] if cleared else inherited) + own/' /solution/fselect.py > /app/fselect
chmod +x /app/fselect
/app/fselect /srv/data /app/backup.rules > /app/selection.txt
