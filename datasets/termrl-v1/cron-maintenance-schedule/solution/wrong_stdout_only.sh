#!/bin/bash
# Mistake: redirections in the wrong order (2>&1 before >>), so stderr is not logged; logs owned by root.
set -euo pipefail
bash /solution/solve.sh
sed -i 's#\(/usr/local/bin/[a-z-]*\( --email\)\?\) >> \(/var/log/maint/[a-z-]*\.log\) 2>&1#\1 2>\&1 >> \3#' /etc/cron.d/maintenance
chown root /var/log/maint/*.log
