#!/bin/bash
# Always uses the backslash as the escape character (the escape directive is read as a comment).
set -euo pipefail
sed 's|            escape = m.group(2)|            pass|' /solution/dflint.py > /app/dflint
grep -q '            pass' /app/dflint
chmod 755 /app/dflint
