#!/bin/bash
set -euo pipefail
cat > /app/fetch <<'PY'
#!/usr/bin/env python3
"""fetch URL OUTPUT: a download that resumes with Range/If-Range across dropped connections."""
import http.client
import os
import re
import sys
import urllib.parse


def main(url, output):
    part = output + ".part"
    data = bytearray()
    etag = None
    total = None
    attempts = redirects = 0
    while attempts < 20:
        attempts += 1
        u = urllib.parse.urlsplit(url)
        headers = {"Connection": "close"}
        if total is not None:
            headers["Range"] = f"bytes={len(data)}-"
            headers["If-Range"] = etag
        conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=60)
        try:
            conn.request("GET", (u.path or "/") + (f"?{u.query}" if u.query else ""), headers=headers)
            resp = conn.getresponse()
        except (OSError, http.client.HTTPException):
            conn.close()
            continue
        status = resp.status
        if status in (301, 302, 303, 307, 308):
            redirects += 1
            conn.close()
            if redirects > 5:
                return 1
            url = urllib.parse.urljoin(url, resp.getheader("Location", ""))
            continue
        if 500 <= status < 600:
            conn.close()
            continue
        if status == 200:
            data = bytearray()
            etag = resp.getheader("ETag")
            total = int(resp.getheader("Content-Length"))
        elif status == 206 and total is not None:
            m = re.fullmatch(r"bytes (\d+)-(\d+)/(\d+)", resp.getheader("Content-Range", ""))
            if not m or int(m.group(1)) != len(data):
                conn.close()
                return 1
            total = int(m.group(3))
        else:
            conn.close()
            return 1
        try:
            while len(data) < total:
                chunk = resp.read1(65536) if hasattr(resp, "read1") else resp.read(65536)
                if not chunk:
                    break
                data += chunk
        except (OSError, http.client.HTTPException):
            pass
        conn.close()
        if len(data) >= total:
            with open(part, "wb") as f:
                f.write(data[:total])
            os.replace(part, output)
            return 0
    return 1


if __name__ == "__main__":
    out = sys.argv[2]
    try:
        code = main(sys.argv[1], out)
    except Exception:
        code = 1
    if code != 0:
        for p in (out + ".part",):
            if os.path.exists(p):
                os.unlink(p)
    sys.exit(code)
PY
chmod +x /app/fetch
