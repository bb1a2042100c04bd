#!/bin/bash
# Partial fix: every other fault fixed, but HEAD drops the body before the length is computed, so HEAD
# answers carry Content-Length: 0 instead of the GET's length.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/httpd/tinyhttpd.py"
s = open(p).read()
old = """    if isinstance(body, str):
        body = body.encode("utf-8")
    head.append(f"Content-Length: {len(body)}")"""
new = """    if isinstance(body, str):
        body = body.encode("utf-8")
    if req is not None and req.method == "HEAD":
        body = b""
    head.append(f"Content-Length: {len(body)}")"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
