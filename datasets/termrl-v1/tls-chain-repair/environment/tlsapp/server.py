"""Tiny HTTPS health endpoint for api.internal.test."""
import configparser
import http.server
import ssl

cfg = configparser.ConfigParser()
cfg.read("/app/tlsapp/tls.conf")
s = cfg["tls"]


class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"api ok\n" if self.path == "/health" else b"not found\n"
        self.send_response(200 if self.path == "/health" else 404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.minimum_version = ssl.TLSVersion.TLSv1_2
ctx.load_cert_chain(s["certificate"], s["private_key"])
srv = http.server.ThreadingHTTPServer((s.get("bind", "127.0.0.1"), s.getint("port")), H)
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
srv.serve_forever()
