#!/bin/bash
# Mistake: nicks and channels compare with plain ASCII lower-casing, so `[` and `{` (etc.) are different.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/^    return s.translate(FOLD)$/    return s.lower()/' /app/ircd/ircd.py
grep -q '    return s.lower()' /app/ircd/ircd.py
