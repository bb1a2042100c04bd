#!/bin/bash
set -euo pipefail
cp /solution/ctl.sh /app/svc/ctl.sh
chmod +x /app/svc/ctl.sh
/app/svc/ctl.sh start && /app/svc/ctl.sh status && /app/svc/ctl.sh stop
