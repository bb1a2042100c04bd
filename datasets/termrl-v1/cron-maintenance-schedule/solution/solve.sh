#!/bin/bash
set -euo pipefail
mkdir -p /var/log/maint
chown root:root /var/log/maint
chmod 0755 /var/log/maint
for pair in db-backup:backup rotate-cache:root monthly-report:reports cert-check:root; do
  prog=${pair%%:*}; user=${pair##*:}
  touch /var/log/maint/$prog.log
  chown "$user" /var/log/maint/$prog.log
  chmod 0640 /var/log/maint/$prog.log
done
cat > /etc/cron.d/maintenance <<'CRON'
# host maintenance jobs
MAILTO=""
PATH=/usr/local/bin:/usr/bin:/bin

30 2 * * 1-5     backup   /usr/local/bin/db-backup >> /var/log/maint/db-backup.log 2>&1
*/20 8-18 * * *  root     /usr/local/bin/rotate-cache >> /var/log/maint/rotate-cache.log 2>&1
15 6 1 * *       reports  /usr/local/bin/monthly-report --email >> /var/log/maint/monthly-report.log 2>&1
0 0,12 * * 0     root     /usr/local/bin/cert-check >> /var/log/maint/cert-check.log 2>&1
CRON
chown root:root /etc/cron.d/maintenance
chmod 0644 /etc/cron.d/maintenance
