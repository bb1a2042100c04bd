#!/bin/bash
# Mistake: resumes with Range only (no If-Range), so when the resource changed the server sends the new
# version's tail and the file becomes a mix of two versions.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fetch"
s = open(p).read()
old = '            headers["If-Range"] = etag\n'
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
