#!/bin/bash
# Mistake: restricts the monthly report with both day-of-month and a weekday, which cron ORs together.
set -euo pipefail
bash /solution/solve.sh
sed -i 's#^15 6 1 \* \*  #15 6 1 * 1-5#' /etc/cron.d/maintenance
grep -q '^15 6 1 \* 1-5' /etc/cron.d/maintenance
