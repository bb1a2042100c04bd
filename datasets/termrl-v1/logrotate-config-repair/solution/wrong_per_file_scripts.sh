#!/bin/bash
# Mistake: everything right except sharedscripts, so the reopen hook runs once per log.
set -euo pipefail
bash /solution/solve.sh >/dev/null
sed -i '/^    sharedscripts$/d' /etc/logrotate.d/webapp
