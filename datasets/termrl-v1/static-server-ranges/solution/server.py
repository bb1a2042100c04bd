import email.utils
import http.server
import os
import re
import sys
import urllib.parse

ROOT = os.path.realpath(os.environ.get("STATIC_ROOT", "/srv/static"))
PORT = int(os.environ.get("STATIC_PORT", "8090"))
TYPES = {".html": "text/html; charset=utf-8", ".txt": "text/plain; charset=utf-8", ".css": "text/css",
         ".js": "application/javascript", ".json": "application/json", ".png": "image/png"}
RANGE_RE = re.compile(r"^bytes=(\d*)-(\d*)$")


class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def simple(self, code, text, headers=()):
        body = text.encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_OTHER(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        self.simple(405, "method not allowed\n", [("Allow", "GET, HEAD")])

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_OTHER

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        raw = urllib.parse.urlsplit(self.path).path
        rel = urllib.parse.unquote(raw)
        full = os.path.realpath(os.path.join(ROOT, rel.lstrip("/")))
        if full != ROOT and not full.startswith(ROOT + os.sep):
            return self.simple(403, "forbidden\n")
        if not os.path.exists(full):
            return self.simple(404, "not found\n")
        if os.path.isdir(full):
            if not raw.endswith("/"):
                return self.simple(301, "moved\n", [("Location", raw + "/")])
            full = os.path.join(full, "index.html")
            if not os.path.isfile(full):
                return self.simple(404, "not found\n")
        if not os.path.isfile(full):
            return self.simple(404, "not found\n")
        st = os.stat(full)
        etag = '"%x-%x"' % (st.st_size, st.st_mtime_ns)
        lastmod = email.utils.formatdate(st.st_mtime, usegmt=True)
        common = [("ETag", etag), ("Last-Modified", lastmod), ("Accept-Ranges", "bytes")]
        inm = self.headers.get("If-None-Match")
        if inm is not None:
            tags = [t.strip() for t in inm.split(",")]
            if "*" in tags or etag in tags:
                return self.not_modified(common)
        else:
            ims = self.headers.get("If-Modified-Since")
            if ims:
                try:
                    t = email.utils.parsedate_to_datetime(ims).timestamp()
                    if int(st.st_mtime) <= t:
                        return self.not_modified(common)
                except (TypeError, ValueError):
                    pass
        size = st.st_size
        start, end = 0, size - 1
        status = 200
        rng = self.headers.get("Range")
        if rng is not None:
            if_range = self.headers.get("If-Range")
            m = RANGE_RE.match(rng.strip())
            if m and (if_range is None or if_range.strip() == etag) and (m.group(1) or m.group(2)):
                a, b = m.group(1), m.group(2)
                if a == "":
                    n = int(b)
                    if n == 0:
                        return self.simple(416, "range not satisfiable\n", [("Content-Range", f"bytes */{size}")])
                    start, end = max(0, size - n), size - 1
                else:
                    start = int(a)
                    end = min(int(b), size - 1) if b else size - 1
                    if b and int(b) < start:
                        start, end = 0, size - 1
                        m = None
                    elif start >= size:
                        return self.simple(416, "range not satisfiable\n", [("Content-Range", f"bytes */{size}")])
                if m:
                    status = 206
        ctype = TYPES.get(os.path.splitext(full)[1].lower(), "application/octet-stream")
        with open(full, "rb") as fh:
            fh.seek(start)
            data = fh.read(end - start + 1) if size else b""
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in common:
            self.send_header(k, v)
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def not_modified(self, common):
        self.send_response(304)
        for k, v in common:
            self.send_header(k, v)
        self.send_header("Content-Length", "0")
        self.end_headers()


class S(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    S(("127.0.0.1", PORT), H).serve_forever()
