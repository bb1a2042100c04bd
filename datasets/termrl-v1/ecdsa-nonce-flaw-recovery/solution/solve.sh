#!/bin/bash
set -euo pipefail
cp /solution/nonce_audit.py /app/nonce_audit.py
chmod +x /app/nonce_audit.py
