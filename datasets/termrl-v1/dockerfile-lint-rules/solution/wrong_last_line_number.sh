#!/bin/bash
# Reports a continued instruction at the line where it ends instead of where it starts.
set -euo pipefail
sed 's|out.append((start, cur.strip()))|out.append((n + 1, cur.strip()))|' /solution/dflint.py > /app/dflint
grep -q 'out.append((n + 1, cur.strip()))' /app/dflint
chmod 755 /app/dflint
