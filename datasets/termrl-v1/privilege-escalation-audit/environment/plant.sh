#!/bin/bash
set -e
# allowlist = what the distro ships
find / -xdev \( -perm -4000 -o -perm -2000 \) -type f 2>/dev/null | sort > /app/suid_allowlist.txt
useradd -m -s /bin/bash intern
useradd -m -s /bin/bash maria
# 1. setuid copies
cp /bin/bash /usr/local/bin/netdiag && chmod 4755 /usr/local/bin/netdiag
mkdir -p /opt/tools/bin
cp /usr/bin/find /opt/tools/bin/ffind && chmod 6755 /opt/tools/bin/ffind
cp /usr/bin/id /usr/local/bin/whoami-helper && chgrp shadow /usr/local/bin/whoami-helper && chmod 2755 /usr/local/bin/whoami-helper
# 2. root cron running writable things
mkdir -p /usr/local/sbin /opt/report
printf '#!/bin/sh\ntar czf /var/backups/etc.tgz /etc 2>/dev/null\n' > /usr/local/sbin/backup-run.sh
chmod 0777 /usr/local/sbin/backup-run.sh
printf '#!/bin/sh\necho report\n' > /opt/report/nightly.sh
chmod 0755 /opt/report/nightly.sh && chmod 0777 /opt/report
printf '#!/bin/sh\necho hi\n' > /home/maria/tidy.sh && chown maria:maria /home/maria/tidy.sh && chmod 0755 /home/maria/tidy.sh
cat > /etc/cron.d/backup <<'C'
SHELL=/bin/sh
*/15 * * * * root /usr/local/sbin/backup-run.sh
30 2 * * * root /opt/report/nightly.sh --full >/dev/null 2>&1
C
chmod 0644 /etc/cron.d/backup
cat > /etc/cron.d/userjobs <<'C'
# maria's own job runs as maria: fine
0 * * * * maria /home/maria/tidy.sh
C
chmod 0666 /etc/cron.d/userjobs
# 3. sudoers drop-ins
mkdir -p /etc/sudoers.d && chmod 0755 /etc/sudoers.d
cat > /etc/sudoers.d/10-ops <<'S'
maria ALL=(root) /usr/bin/systemctl restart nginx
S
cat > /etc/sudoers.d/90-temp-access <<'S'
# temporary, remove after the migration (2023-11)
maria ALL=(root) /usr/bin/journalctl
intern ALL=(ALL) NOPASSWD: ALL
S
chmod 0440 /etc/sudoers.d/10-ops /etc/sudoers.d/90-temp-access
# 4. authorized keys
mkdir -p /home/intern/.ssh /home/maria/.ssh
cat > /home/intern/.ssh/authorized_keys <<'K'
ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIntern0Laptop intern@laptop
ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDx7Persist0k3y support@helpdesk-tools
K
echo "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMaria0Desk maria@desk" > /home/maria/.ssh/authorized_keys
chown -R intern:intern /home/intern/.ssh; chown -R maria:maria /home/maria/.ssh
chmod 600 /home/*/.ssh/authorized_keys
cat > /app/approved_keys.txt <<'K'
ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIntern0Laptop intern@laptop
ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMaria0Desk maria@desk
K
