#!/bin/bash
# Mistake: only handles setuid (-perm -4000), forgets setgid, and does not look at cron target directories.
set -euo pipefail
bash /solution/solve.sh >/dev/null
chmod g+s /usr/local/bin/whoami-helper
chmod o+w /opt/report
grep -v -e whoami-helper -e '^/opt/report$' /app/audit_report.txt > /tmp/r; cp /tmp/r /app/audit_report.txt
