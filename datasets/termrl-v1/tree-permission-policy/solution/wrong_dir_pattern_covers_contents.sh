#!/bin/bash
# Mistake: gitignore habits: a pattern that matches a directory is also applied to everything inside it.
set -euo pipefail
python3 - <<'PY'
src = open("/solution/permpolicy.py").read()
old = """            if not rx.fullmatch(rel):
                continue"""
new = """            segs = rel.split("/")
            if not any(rx.fullmatch("/".join(segs[:i])) for i in range(1, len(segs) + 1)):
                continue"""
assert old in src
open("/app/permpolicy", "w").write(src.replace(old, new))
PY
chmod +x /app/permpolicy
/app/permpolicy /app/site.policy /srv/site
