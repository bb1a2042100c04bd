#!/bin/bash
# Fixes the framing and connection faults of tinyhttpd in place.
set -euo pipefail
python3 - <<'PY'
p = "/app/httpd/tinyhttpd.py"
s = open(p).read()


def sub(old, new):
    global s
    assert old in s, old
    s = s.replace(old, new)


# header names are case-insensitive
sub('        headers[name.strip()] = value.strip()', '        headers[name.strip().lower()] = value.strip()')
# chunked bodies: hex sizes, extensions, trailers; Content-Length validated
sub('''    if req.headers.get("Transfer-Encoding", "").lower() == "chunked":
        body = b""
        while True:
            size = int(conn.readline().decode("latin-1").strip())
            if size == 0:
                break
            body += conn.read(size)
            conn.readline()
        conn.readline()
        return body
    if "Content-Length" in req.headers:
        n = int(req.headers["Content-Length"])''', '''    if req.headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            text = conn.readline().decode("latin-1").split(";", 1)[0].strip()
            try:
                size = int(text, 16)
            except ValueError:
                raise BadRequest("bad chunk size")
            if size == 0:
                break
            body += conn.read(size)
            if conn.readline() != b"":
                raise BadRequest("bad chunk end")
            if len(body) > MAX_BODY:
                raise BadRequest("too large")
        while conn.readline() != b"":  # trailer fields
            pass
        return body
    if "content-length" in req.headers:
        value = req.headers["content-length"]
        if not value.isdigit():
            raise BadRequest("bad content-length")
        n = int(value)''')
# routes use the body read up front
sub('''        body = read_body(conn, req)
        return 200, {"Content-Type": "application/octet-stream", "X-Body-SHA256"''',
    '''        body = req.body
        return 200, {"Content-Type": "application/octet-stream", "X-Body-SHA256"''')
sub('''            body = read_body(conn, req)
            os.makedirs(STORE''', '''            body = req.body
            os.makedirs(STORE''')
# lengths in bytes; HEAD has no body
sub('''    head.append(f"Content-Length: {len(body)}")
    if not keep:
        head.append("Connection: close")
    if isinstance(body, str):
        body = body.encode("utf-8")
''', '''    if isinstance(body, str):
        body = body.encode("utf-8")
    head.append(f"Content-Length: {len(body)}")
    if not keep:
        head.append("Connection: close")
    if req is not None and req.method == "HEAD":
        body = b""
''')
# persistence by version, 411, 100-continue, body always drained
sub('''            keep = req.headers.get("Connection", "").lower() != "close"
            try:
                status, headers, body = route(conn, req)''', '''            tokens = [t.strip().lower() for t in req.headers.get("connection", "").split(",")]
            keep = "close" not in tokens if req.version == "HTTP/1.1" else "keep-alive" in tokens
            framed = "content-length" in req.headers or req.headers.get("transfer-encoding", "").lower() == "chunked"
            if req.method in ("POST", "PUT") and not framed:
                respond(conn, req, 411, {}, b"length required\\n", keep)
                if not keep:
                    return
                continue
            try:
                if framed and req.headers.get("expect", "").lower() == "100-continue":
                    conn.sock.sendall(b"HTTP/1.1 100 Continue\\r\\n\\r\\n")
                req.body = read_body(conn, req)
                status, headers, body = route(conn, req)''')
open(p, "w").write(s)
PY
