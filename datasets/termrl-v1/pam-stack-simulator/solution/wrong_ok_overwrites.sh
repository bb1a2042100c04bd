#!/bin/bash
# Mistake: lets every ok/done overwrite the status of a passing stack (not only while it is success).
set -euo pipefail
python3 - <<'PY'
s = open("/solution/pamsim.py").read()
old = '''            if impression is None or (impression == "pass" and status == "success"):'''
assert old in s
s = s.replace(old, '''            if impression != "fail":''')
open("/app/pamsim.py", "w").write(s)
PY
