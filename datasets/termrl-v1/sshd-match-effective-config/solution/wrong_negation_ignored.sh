#!/bin/bash
# Mistake: a pattern list matches when any pattern matches; "!pattern" is read as a plain pattern that
# never matches instead of a veto.
set -euo pipefail
python3 - <<'PY'
src = open("/solution/sshd_eff.py").read()
src = src.replace('''            if test(p[1:]):
                return False''', '''            pass''')
open("/app/sshd-eff", "w").write(src)
PY
chmod +x /app/sshd-eff
