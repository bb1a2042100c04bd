#!/bin/bash
# Treats patches as a plain JSON merge: lists are always replaced, never merged by name.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/kbuild.py").read()
old = """    if isinstance(target, list) and isinstance(patch, list) and target and \\"""
assert old in s
open("/app/kbuild", "w").write(s.replace(old, """    if False and isinstance(target, list) and isinstance(patch, list) and target and \\"""))
PY
chmod 755 /app/kbuild
