#!/bin/bash
# Mistake: stop sends SIGTERM and removes the pid file, but never escalates to SIGKILL.
set -euo pipefail
sed 's/  if alive "\$pid"; then kill -KILL "\$pid" 2>\/dev\/null; while alive "\$pid"; do sleep 0.05; done; fi/  :/' /solution/ctl.sh > /app/svc/ctl.sh
chmod +x /app/svc/ctl.sh
