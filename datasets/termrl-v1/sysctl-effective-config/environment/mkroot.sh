#!/bin/bash
set -e
R=/app/sysroot
mkdir -p $R/usr/lib/sysctl.d $R/run/sysctl.d $R/etc/sysctl.d
cat > $R/usr/lib/sysctl.d/10-defaults.conf <<'C'
# distro defaults
kernel.panic = 0
net.ipv4.ip_forward = 0
vm.swappiness = 60
net.core.somaxconn=128
C
cat > $R/usr/lib/sysctl.d/50-pid-max.conf <<'C'
kernel.pid_max = 4194304
C
cat > $R/usr/lib/sysctl.d/99-hardening.conf <<'C'
kernel.kptr_restrict = 1
kernel.dmesg_restrict = 1
C
cat > $R/run/sysctl.d/50-pid-max.conf <<'C'
kernel.pid_max = 65536
C
cat > $R/etc/sysctl.d/30-net.conf <<'C'
; router settings
net/ipv4/ip_forward = 1
 net.ipv4.conf.all.rp_filter   =   2
-net.ipv6.conf.all.forwarding = 1
C
cat > $R/etc/sysctl.d/60-vm.conf <<'C'
vm.swappiness = 10
vm.dirty_ratio = 15
C
ln -s /dev/null $R/etc/sysctl.d/99-hardening.conf
cat > $R/etc/sysctl.d/05-early.conf <<'C'
net.core.somaxconn = 4096
vm.swappiness = 30
C
echo "this file is ignored" > $R/etc/sysctl.d/README
cat > $R/etc/sysctl.conf <<'C'
# local overrides
kernel.panic = 10
net.core.somaxconn = 1024
C
