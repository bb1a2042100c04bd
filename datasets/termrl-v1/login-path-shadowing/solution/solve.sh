#!/bin/bash
set -euo pipefail
# legacy dir goes to the END of PATH so it cannot shadow system tools
echo 'export PATH="$PATH:/opt/legacy/bin"' > /etc/profile.d/10-legacy.sh
echo 'export REPORT_CONF=/etc/report/report.ini' > /etc/profile.d/20-report.sh
# retired v1 in /usr/local/sbin shadows v2 (sbin comes first in root's PATH)
mv /usr/local/sbin/report /usr/local/sbin/report.v1-retired
chmod -x /usr/local/sbin/report.v1-retired
env -i HOME=/root /bin/bash -lc 'report; command -v python3 legacy-tool'
