#!/bin/bash
# Mistake: detection is right, but Windows-1252 text is decoded as Latin-1 ("they are the same"), so
# curly quotes, dashes and the euro sign become C1 control characters.
set -euo pipefail
sed 's/^    return data.decode(enc)$/    return data.decode("latin-1" if enc == "cp1252" else enc)/' /solution/to_utf8.py > /app/to-utf8
chmod +x /app/to-utf8
/app/to-utf8 /srv/docs > /app/docs-report.txt
