#!/bin/bash
set -euo pipefail
cp /solution/server.py /app/authsvc/server.py
