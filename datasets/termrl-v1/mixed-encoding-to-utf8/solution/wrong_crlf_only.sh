#!/bin/bash
# Mistake: only CRLF is converted (old Mac lone-CR files stay one long line), and no NFC normalisation.
set -euo pipefail
sed -e 's/.replace("\\r", "\\n")//' -e 's/    text = unicodedata.normalize("NFC", text)/    pass/' /solution/to_utf8.py > /app/to-utf8
chmod +x /app/to-utf8
/app/to-utf8 /srv/docs > /app/docs-report.txt
