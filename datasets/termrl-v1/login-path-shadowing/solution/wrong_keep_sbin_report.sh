#!/bin/bash
# Mistake: fixes PATH order and REPORT_CONF but leaves the retired report in /usr/local/sbin.
set -euo pipefail
bash /solution/solve.sh >/dev/null
mv /usr/local/sbin/report.v1-retired /usr/local/sbin/report
chmod +x /usr/local/sbin/report
