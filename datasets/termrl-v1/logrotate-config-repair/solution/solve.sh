#!/bin/bash
set -euo pipefail
cat > /etc/logrotate.d/webapp <<'CONF'
# rotation for the webapp service
/var/log/webapp/*.log {
    su webapp adm
    weekly
    rotate 5
    missingok
    notifempty
    compress
    delaycompress
    create 0640 webapp adm
    sharedscripts
    postrotate
        /usr/local/bin/webapp-reopen
    endscript
}
CONF
chown root:root /etc/logrotate.d/webapp
chmod 0644 /etc/logrotate.d/webapp
logrotate -d /etc/logrotate.d/webapp 2>&1 | tail -5
