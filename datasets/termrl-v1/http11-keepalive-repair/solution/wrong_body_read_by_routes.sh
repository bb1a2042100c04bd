#!/bin/bash
# Partial fix: every framing fault fixed, but the body is still read only by the routes that use it, so a
# request with a body to another route (404/405/status) leaves its body to be parsed as the next request.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/httpd/tinyhttpd.py"
s = open(p).read()
old = "                req.body = read_body(conn, req)\n"
new = ("                path = urllib.parse.urlsplit(req.target).path\n"
       "                uses = path == \"/echo\" and req.method == \"POST\" or path.startswith(\"/store/\") and req.method == \"PUT\"\n"
       "                req.body = read_body(conn, req) if uses else b\"\"\n")
assert old in s
open(p, "w").write(s.replace(old, new))
PY
