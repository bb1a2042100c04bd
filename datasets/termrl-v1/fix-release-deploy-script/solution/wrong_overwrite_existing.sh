#!/bin/bash
# Mistake: leaves the missing check for an existing release: a re-deploy unpacks over it.
set -euo pipefail
cp "$(dirname "$0")/deploy_fixed.bash" /app/deploy.sh
python3 - <<'PY'
p = "/app/deploy.sh"
s = open(p).read()
old = """  [ ! -e "$dir" ] || die 2 "release $id already exists"
  mkdir "$dir\""""
new = """  mkdir -p "$dir\""""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
