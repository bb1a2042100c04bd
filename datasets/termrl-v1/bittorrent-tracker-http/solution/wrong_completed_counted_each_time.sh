#!/bin/bash
# Mistake: every "completed" event increases the downloaded counter, even repeated ones from the same peer.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/tracker/tracker.py"
s = open(p).read()
old = """        if event == "completed" and peer_id not in t["completed_by"]:"""
assert old in s
open(p, "w").write(s.replace(old, """        if event == "completed":"""))
PY
