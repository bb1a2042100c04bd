#!/bin/bash
# Mistake: keeps '-' lines of missing modules in the stack as no-ops, so they still count for jumps.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/pamsim.py").read()
old = '''            if line["dash"] and line["target"] not in installed:
                continue
'''
assert old in s
s = s.replace(old, "")
old = '''            else:
                r = "module_unknown"'''
assert old in s
s = s.replace(old, '''            elif line["dash"]:
                continue
            else:
                r = "module_unknown"''')
open("/app/pamsim.py", "w").write(s)
PY
