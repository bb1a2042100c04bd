#!/bin/bash
set -euo pipefail
cp /solution/sudocheck.py /app/sudocheck
chmod +x /app/sudocheck
/app/sudocheck --host web1 alice /bin/bash || true
