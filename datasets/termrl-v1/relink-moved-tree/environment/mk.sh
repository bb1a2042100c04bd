#!/bin/bash
# /srv/app is a copy (cp -a) of /opt/legacy/app, which has since been deleted.
set -euo pipefail
R=/srv/app
O=/opt/legacy/app
mkdir -p "$R/bin" "$R/lib/plugins" "$R/etc/conf.d" "$R/share/doc" "$R/var/run" /opt/legacy/app2/lib
printf '#!/bin/sh\necho app\n' > "$R/bin/app-1.4"; chmod 755 "$R/bin/app-1.4"
printf 'so\n' > "$R/lib/libcore.so.2.1"
printf 'plugin\n' > "$R/lib/plugins/gz.so"
printf 'a=1\n' > "$R/etc/app.conf"
printf 'x=2\n' > "$R/etc/conf.d/10-local.conf"
printf 'doc\n' > "$R/share/doc/README"
printf 'other\n' > /opt/legacy/app2/lib/libother.so
ln -s "$O/bin/app-1.4" "$R/bin/app"
ln -s "$O/lib/libcore.so.2.1" "$R/lib/libcore.so.2"
ln -s "$O//lib/./libcore.so.2" "$R/lib/libcore.so"
ln -s "$O/etc" "$R/share/etc-link"
ln -s "$O/share/doc/../doc/README" "$R/README"
ln -s "$O" "$R/share/home"
ln -s "$O/lib/plugins/missing.so" "$R/lib/plugins/bz2.so"
ln -s "/opt/legacy/app2/lib/libother.so" "$R/lib/libother.so"
ln -s "/opt/legacy/app/../app2/lib/libother.so" "$R/lib/libother-compat.so"
ln -s "/etc/hostname" "$R/etc/hostname"
ln -s "conf.d/10-local.conf" "$R/etc/local.conf"
ln -s "../nowhere" "$R/var/run/pid"
ln -s "$O/var/run/loop" "$R/var/run/loop"
chown -R 1000:1000 "$R"
chown -h 0:0 "$R/bin/app" "$R/etc/hostname"
chown -h 2001:2002 "$R/lib/libcore.so"
