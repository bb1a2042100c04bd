#!/bin/bash
# Mistake: correct routing and headers, but keeps a single-threaded HTTPServer.
set -euo pipefail
sed 's/class Server(http.server.ThreadingHTTPServer):/class Server(http.server.HTTPServer):/' /solution/proxy.py > /app/proxy/proxy.py
