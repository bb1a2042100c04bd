#!/bin/bash
# Mistake: tests the raw target with a plain string prefix (no normalisation, no path-component boundary).
set -euo pipefail
python3 - <<'PY'
s = open("/solution/relink.py").read()
old = '''        t = os.path.normpath(target)
        if t != old and not t.startswith(old + "/"):'''
new = '''        t = target
        if not t.startswith(old):'''
assert old in s
open("/app/relink.py", "w").write(s.replace(old, new))
PY
python3 /app/relink.py /srv/app /opt/legacy/app
