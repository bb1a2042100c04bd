#!/bin/bash
# The example tree /app/example-root: an sshd configuration with includes and Match blocks.
set -euo pipefail
R=${1:-/app/example-root}
mkdir -p "$R/etc/ssh/sshd_config.d" "$R/etc/ssh/match.d"
cat > "$R/etc/ssh/sshd_config" <<'C'
# site sshd configuration
Include sshd_config.d/*.conf
Port 22
Port=2222
PermitRootLogin no
PasswordAuthentication yes
AcceptEnv LANG LC_*
Banner /etc/issue.net

Match Group sftponly
    ChrootDirectory /srv/sftp/%u
    ForceCommand internal-sftp -d "/upload dir"
    X11Forwarding no
    AllowTcpForwarding no

Match Address 10.0.0.0/8,!10.99.0.0/16 User *,!guest
    PasswordAuthentication no
    Include match.d/*.conf

Match Host *.lab.example.org
    X11Forwarding yes
    AcceptEnv XMODIFIERS
C
cat > "$R/etc/ssh/sshd_config.d/10-hardening.conf" <<'C'
MaxAuthTries 3
LoginGraceTime = 30
DenyUsers guest@*.example.net root
AllowGroups staff sftponly admins
C
cat > "$R/etc/ssh/sshd_config.d/20-legacy.conf" <<'C'
PasswordAuthentication no
Match User legacy
    PubkeyAuthentication no
C
cat > "$R/etc/ssh/match.d/50-internal.conf" <<'C'
X11Forwarding yes
MaxAuthTries 10
C
cat > "$R/etc/passwd" <<'C'
root:x:0:0:root:/root:/bin/bash
alice:x:1000:1000:Alice:/home/alice:/bin/bash
bob:x:1001:1001:Bob:/home/bob:/bin/bash
upload:x:1002:2001:Upload:/srv/sftp/upload:/usr/sbin/nologin
guest:x:1003:1003:Guest:/home/guest:/bin/bash
legacy:x:1004:1004:Legacy:/home/legacy:/bin/bash
C
cat > "$R/etc/group" <<'C'
root:x:0:
alice:x:1000:
bob:x:1001:
staff:x:50:alice,bob,legacy
sftponly:x:2001:
admins:x:27:alice
guest:x:1003:
legacy:x:1004:
C
