#!/bin/bash
# Mistake: matches every .scanignore pattern against the file's base name only (so directory names and
# patterns with a slash never take effect).
set -euo pipefail
python3 - <<'PY'
s = open("/solution/secretscan.py").read()
old = "    parts = rel.split(\"/\")\n"
assert old in s
s = s.replace(old, "    parts = rel.split(\"/\")[-1:]\n")
s = s.replace("        if \"/\" in p:\n            if fnmatch", "        if False:\n            if fnmatch")
open("/app/secretscan.py", "w").write(s)
PY
