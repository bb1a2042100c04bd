#!/bin/bash
# Builds the example unit tree /app/example-root.
set -euo pipefail
R=/app/example-root
E=$R/etc/systemd/system
U=$R/usr/lib/systemd/system
mkdir -p "$E" "$U" "$R/run/systemd/system"
unit() { printf '%b' "$2" > "$1"; }
unit $U/multi-user.target '[Unit]\nDescription=Multi-User System\nRequires=basic.target\nAfter=basic.target\n'
unit $U/basic.target '[Unit]\nDescription=Basic System\nRequires=sysinit.target\nAfter=sysinit.target\n'
unit $U/sysinit.target '[Unit]\nDescription=System Initialization\nWants=systemd-tmpfiles-setup.service\n'
unit $U/systemd-tmpfiles-setup.service '[Unit]\nBefore=sysinit.target\n\n[Service]\nType=oneshot\nExecStart=/bin/true\n'
unit $U/network.target '[Unit]\nDescription=Network\n'
unit $U/nginx.service '# web server\n[Unit]\nRequires=network.target\nAfter=network.target\nWants=php-fpm.service\n\n[Service]\nExecStart=/usr/sbin/nginx\n'
unit $U/php-fpm.service '[Unit]\nRequires=php-fpm.socket\nAfter=php-fpm.socket\n'
unit $U/redis.service '[Unit]\nAfter=network.target\n[Install]\nWantedBy=multi-user.target\n'
unit $U/ssh.service '[Unit]\nAfter=network.target auditd.service\nWants=auditd.service\n'
unit $U/auditd.service '[Unit]\nBefore=sysinit.target\n'
unit $U/getty@.service '[Unit]\nAfter=systemd-user-sessions.service\nWants=console-setup@%i.service\n'
unit $U/systemd-user-sessions.service '[Unit]\nAfter=network.target\n'
unit $U/bluetooth.service '[Unit]\nAfter=basic.target\n'
mkdir -p $U/multi-user.target.wants $E/multi-user.target.wants $U/nginx.service.d $E/nginx.service.d
ln -s ../getty@.service $U/multi-user.target.wants/getty@tty1.service
ln -s ../bluetooth.service $U/multi-user.target.wants/bluetooth.service
ln -s /usr/lib/systemd/system/nginx.service $E/multi-user.target.wants/nginx.service
ln -s /usr/lib/systemd/system/ssh.service $E/multi-user.target.wants/sshd.service
ln -s /usr/lib/systemd/system/ssh.service $E/sshd.service
ln -s /dev/null $E/bluetooth.service
unit $U/nginx.service.d/override.conf '[Unit]\nAfter=\n'
unit $U/nginx.service.d/10-limits.conf '[Service]\nLimitNOFILE=65536\n'
unit $E/nginx.service.d/override.conf '[Unit]\nWants=\nWants=redis.service\nAfter=redis.service\n'
