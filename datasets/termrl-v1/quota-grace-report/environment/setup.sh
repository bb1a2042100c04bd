#!/bin/bash
# Accounts, the export tree /srv/export and its quota configuration /etc/exports.quota.
set -euo pipefail
groupadd -g 2000 proj
useradd -u 1001 -M -s /usr/sbin/nologin alice
useradd -u 1002 -M -s /usr/sbin/nologin bob
T=/srv/export
mkdir -p $T/alice/data $T/bob $T/proj/shared
head -c 300000 /dev/zero | tr '\0' 'a' > $T/alice/data/big.bin
head -c 5000 /dev/zero | tr '\0' 'b' > $T/alice/notes.txt
for i in 1 2 3 4 5 6; do echo "$i" > $T/alice/data/f$i; done
ln $T/alice/data/big.bin $T/alice/big-again.bin
head -c 70000 /dev/zero | tr '\0' 'c' > $T/bob/dump.sql
truncate -s 50M $T/bob/sparse.img
ln -s ../alice/notes.txt $T/bob/notes-link
echo shared > $T/proj/shared/readme
echo plan > $T/proj/plan.txt
echo orphan > $T/proj/orphan
chown -R alice:alice $T/alice; chown -R bob:bob $T/bob; chown -h bob:bob $T/bob/notes-link
chown -R alice:proj $T/proj; chown bob:proj $T/proj/plan.txt; chown 4242:4242 $T/proj/orphan
cat > /etc/exports.quota <<'Q'
# quotas for /srv/export
grace blocks=3d inodes=12h
user alice blocks=100:400 inodes=5:20
user bob blocks=0:50
group proj inodes=3:0
user 4242 blocks=10:0 inodes=1:0
group 31337 blocks=1:1
Q
