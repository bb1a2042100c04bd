#!/bin/bash
set -e
useradd -M -u 2001 ana; useradd -M -u 2002 raj
D=/srv/share
mkdir -p $D/ana/photos $D/raj/vm $D/common $D/empty
head -c 300000 /dev/urandom > $D/ana/photos/p1.raw
head -c 120000 /dev/urandom > $D/ana/photos/p2.raw
ln $D/ana/photos/p1.raw $D/common/p1-link.raw
truncate -s 50M $D/raj/vm/disk.img
head -c 4096 /dev/urandom | dd of=$D/raj/vm/disk.img conv=notrunc status=none
head -c 70000 /dev/urandom > $D/raj/notes.bin
echo "shared readme" > $D/common/README
ln -s /etc/passwd $D/common/passwd-link
chown -R ana:ana $D/ana; chown -h root:root $D/common/passwd-link
chown -R raj:raj $D/raj
chown ana:ana $D/common/p1-link.raw
