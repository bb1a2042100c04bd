#!/bin/bash
# Mistake: fixes the set -e arithmetic but still prunes by modification time (ls -t), which the unpacked archives set to their build time.
set -euo pipefail
cp "$(dirname "$0")/deploy_fixed.bash" /app/deploy.sh
python3 - <<'PY'
p = "/app/deploy.sh"
s = open(p).read()
old = """  mapfile -t ids < <(deployed_ids)
  for ((i = ${#ids[@]} - 1; i >= 0; i--)); do
    id=${ids[i]}
    [ -d "$root/releases/$id" ] || continue
"""
new = """  for id in $(ls -1t "$root/releases"); do
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
