#!/bin/bash
# Mistake: a LOCAL header's address block is reported like a PROXY one instead of being ignored.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/    if cmd == 1 and fam == 1:/    if fam == 1:/; s/    elif cmd == 1 and fam == 2:/    elif fam == 2:/; s/    elif cmd == 1 and fam == 3:/    elif fam == 3:/' /app/pp2/pp2.py
grep -q '^    if fam == 1:' /app/pp2/pp2.py
