"""edgeproxy: a small path-routing HTTP reverse proxy."""
import http.client
import http.server
import json
import socket
import sys
import urllib.parse

HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
       "transfer-encoding", "upgrade"}

CONFIG = json.load(open(sys.argv[1]))
ROUTES = sorted(CONFIG["routes"], key=lambda r: len(r["prefix"]), reverse=True)
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
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.close_connection = True

    def handle_any(self):
        split = urllib.parse.urlsplit(self.path)
        route = pick(split.path)
        if route is None:
            return self.send_plain(404, "no route\n")
        up = urllib.parse.urlsplit(route["upstream"])
        path = split.path
        if route.get("strip_prefix"):
            path = path[len(route["prefix"]):]
            if not path.startswith("/"):
                path = "/" + path
        if split.query:
            path += "?" + split.query
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {}
        for k, v in self.headers.items():
            if k.lower() in HOP or k.lower() in ("host", "content-length"):
                continue
            headers[k] = v
        client = self.client_address[0]
        prior = self.headers.get("X-Forwarded-For")
        headers["X-Forwarded-For"] = f"{prior}, {client}" if prior else client
        headers["X-Forwarded-Host"] = self.headers.get("Host", "")
        headers["Host"] = up.netloc
        if body is not None:
            headers["Content-Length"] = str(len(body))
        conn = http.client.HTTPConnection(up.hostname, up.port or 80, timeout=TIMEOUT)
        try:
            conn.request(self.command, path, body=body, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
        except socket.timeout:
            return self.send_plain(504, "upstream timeout\n")
        except OSError:
            return self.send_plain(502, "bad gateway\n")
        finally:
            conn.close()
        self.send_response(resp.status, resp.reason)
        for k, v in resp.getheaders():
            if k.lower() in HOP or k.lower() == "content-length":
                continue
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = handle_any


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


if __name__ == "__main__":
    Server((CONFIG.get("listen_host", "127.0.0.1"), int(CONFIG["listen_port"])), Proxy).serve_forever()
