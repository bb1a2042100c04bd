#!/bin/bash
set -euo pipefail
cp /solution/audit_sessions.py /app/audit_sessions.py
chmod +x /app/audit_sessions.py
