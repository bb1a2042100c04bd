#!/bin/bash
set -euo pipefail
cp /solution/aptsolve.py /app/aptsolve
chmod +x /app/aptsolve
/app/aptsolve --repo /app/repo/Packages --status /app/repo/status webapp
