"""edgeproxy: a small path-routing HTTP reverse proxy."""
import http.server
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
       "transfer-encoding", "upgrade"}

CONFIG = json.load(open(sys.argv[1]))
ROUTES = CONFIG["routes"]
TIMEOUT = float(CONFIG.get("upstream_timeout", 2.0))


def pick(path):
    for r in ROUTES:
        if path.startswith(r["prefix"]):
            return r
    return None


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send_plain(self, code, text):
        body = text.encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        split = urllib.parse.urlsplit(self.path)
        route = pick(split.path)
        if route is None:
            return self.send_plain(404, "no route\n")
        path = split.path
        if route.get("strip_prefix"):
            path = path[len(route["prefix"]):]
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {}
        for k, v in self.headers.items():
            if k.lower() in ("content-length",):
                continue
            headers[k] = v
        headers["X-Forwarded-For"] = self.client_address[0]
        req = urllib.request.Request(route["upstream"].rstrip("/") + "/" + path.lstrip("/"), data=body,
                                     headers=headers, method=self.command)
        try:
            resp = urllib.request.urlopen(req, timeout=TIMEOUT)
            data = resp.read()
        except Exception as exc:
            return self.send_plain(500, f"proxy error: {exc}\n")
        self.send_response(resp.status)
        for k, v in resp.getheaders():
            if k.lower() == "content-length":
                continue
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = handle_any


if __name__ == "__main__":
    http.server.HTTPServer((CONFIG.get("listen_host", "127.0.0.1"), int(CONFIG["listen_port"])), Proxy).serve_forever()
