#!/bin/bash
set -euo pipefail
cp /solution/unitplan.py /app/unitplan
chmod +x /app/unitplan
/app/unitplan /app/example-root multi-user.target
