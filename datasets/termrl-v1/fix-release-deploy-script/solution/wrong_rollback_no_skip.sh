#!/bin/bash
# Mistake: rollback takes the log entry before the current release without checking that it still exists.
set -euo pipefail
cp "$(dirname "$0")/deploy_fixed.bash" /app/deploy.sh
python3 - <<'PY'
p = "/app/deploy.sh"
s = open(p).read()
old = """    if [ -n "$seen" ] && [ -d "$root/releases/${ids[i]}" ]; then"""
new = """    if [ -n "$seen" ]; then"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
