#!/bin/bash
set -euo pipefail
cat > /app/server.py <<'PY'
import csv
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

with open("/app/inventory.csv", newline="") as fh:
    STOCK = {row["sku"]: {"sku": row["sku"], "name": row["name"], "count": int(row["count"])}
             for row in csv.DictReader(fh)}


class Handler(BaseHTTPRequestHandler):
    def _send(self, status, body, kind):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/health":
            self._send(200, "ok", "text/plain")
        elif self.path.startswith("/stock/") and self.path[len("/stock/"):] in STOCK:
            self._send(200, json.dumps(STOCK[self.path[len("/stock/"):]]), "application/json")
        else:
            self._send(404, json.dumps({"error": "not found"}), "application/json")


ThreadingHTTPServer(("0.0.0.0", 8080), Handler).serve_forever()
PY
# detached from this shell: it must outlive the agent's session
setsid nohup python3 /app/server.py >/var/log/stock-server.log 2>&1 < /dev/null &
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/health', timeout=1)" 2>/dev/null && exit 0
  sleep 0.2
done
echo "server did not come up" >&2
exit 1
