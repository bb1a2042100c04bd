#!/bin/bash
# Mistake: a plain (non-threading) TCPServer -- one idle client blocks everyone else.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/class Server(socketserver.ThreadingTCPServer):/class Server(socketserver.TCPServer):/' /app/kvserver/server.py
