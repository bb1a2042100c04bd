#!/bin/bash
# Mistake: a pid file is "valid" whenever that PID is alive (no check that it is the worker).
set -euo pipefail
sed 's#  tr .\\0. . . < "/proc/\$pid/cmdline" | grep -q -- "\$WORKER" || return 1#  :#' /solution/ctl.sh > /app/svc/ctl.sh
chmod +x /app/svc/ctl.sh
grep -c 'tr ' /app/svc/ctl.sh | grep -q '^0$'
