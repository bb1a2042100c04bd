#!/bin/bash
# Local accounts of this machine, the retired host's account files, and its copied home tree.
set -euo pipefail
groupadd -g 1500 devs
groupadd -g 1000 alice && useradd -u 1000 -g 1000 -G devs -c "Alice Ng" -m -s /bin/bash alice
groupadd -g 1001 bob && useradd -u 1001 -g 1001 -G devs -c "Bob Ray" -m -s /bin/bash bob
groupadd -g 1002 deploy && useradd -u 1002 -g 1002 -c "deploy bot" -M -d /srv/deploy -s /usr/sbin/nologin deploy
groupadd -g 105 messagebus && useradd -r -u 105 -g 105 -M -d /nonexistent -s /usr/sbin/nologin messagebus

mkdir -p /app/oldhost
cat > /app/oldhost/passwd <<'P'
root:x:0:0:root:/root:/bin/bash
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
postgres:x:105:108:PostgreSQL administrator:/var/lib/postgresql:/bin/bash
carol:x:1000:1000:Carol Diaz:/home/carol:/bin/zsh
alice:x:1001:1001:Alice N.:/home/alice:/bin/bash
erin:x:1002:1002:Erin:/home/erin:/bin/bash
dave:x:1003:1003:Dave,,,:/home/dave:/bin/bash
svc-report:x:1500:1500:report job:/srv/report:/usr/sbin/nologin
P
cat > /app/oldhost/group <<'G'
root:x:0:
daemon:x:1:
users:x:100:carol,dave
postgres:x:108:
ssl-cert:x:109:postgres
carol:x:1000:
alice:x:1001:
erin:x:1002:
dave:x:1003:
devs:x:1004:carol,alice,erin
svc-report:x:1500:
G
T=/srv/oldhome
mkdir -p $T/carol/bin $T/carol/.ssh $T/alice/src $T/erin $T/dave/shared $T/report
echo "carol's notes" > $T/carol/notes.txt
printf '#!/bin/sh\necho hi\n' > $T/carol/bin/hello
echo "ssh-ed25519 AAAA carol" > $T/carol/.ssh/authorized_keys
echo "int main(){}" > $T/alice/src/main.c
echo "erin" > $T/erin/todo
echo "shared" > $T/dave/shared/plan.md
echo "q3" > $T/report/out.csv
cp /bin/true $T/erin/suid-tool
ln -s ../carol/notes.txt $T/dave/carol-notes
ln -s /etc/hostname $T/erin/host-link
chown -R 1000:1000 $T/carol; chown -R 1001:1001 $T/alice; chown -R 1002:1002 $T/erin
chown -R 1003:1004 $T/dave; chown -R 1500:1500 $T/report; chown 0:100 $T
chown -h 1003:1003 $T/dave/carol-notes; chown -h 1002:100 $T/erin/host-link
chown 4242:1003 $T/dave/shared/plan.md
chmod 700 $T/carol/.ssh; chmod 600 $T/carol/.ssh/authorized_keys; chmod 755 $T/carol/bin/hello
chmod 4755 $T/erin/suid-tool; chmod 2775 $T/dave/shared; chmod 1777 $T/report
