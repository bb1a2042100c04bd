#!/bin/bash
# Renames ConfigMap references only in the directory that generates the ConfigMap: outer prefixes and
# suffixes leave the Deployments pointing at the old names.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/kbuild.py").read()
old = """        if r.kind == "ConfigMap":
            renames[before] = r.display()"""
new = """        if r.kind == "ConfigMap" and id(r) in old_display:
            renames[before] = r.display()"""
assert old in s
open("/app/kbuild", "w").write(s.replace(old, new))
PY
chmod 755 /app/kbuild
