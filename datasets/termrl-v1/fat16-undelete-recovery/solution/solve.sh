#!/bin/bash
set -euo pipefail
cp /solution/undelete.py /app/undelete.py
chmod +x /app/undelete.py
