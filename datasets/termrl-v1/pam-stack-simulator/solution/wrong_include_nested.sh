#!/bin/bash
# Mistake: evaluates an included file as a nested stack (like substack), so its jumps, done and die stay
# inside it.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/pamsim.py").read()
old = '''        if line["kind"] == "include":
            out += build(pamdir, line["target"], typ, installed)
        elif line["kind"] == "substack":'''
assert old in s
s = s.replace(old, '''        if line["kind"] in ("include", "substack"):''')
open("/app/pamsim.py", "w").write(s)
PY
