#!/bin/bash
# build-deb.sh VERSION OUTDIR: package /app/tallyd-src as OUTDIR/tallyd_VERSION_all.deb
set -euo pipefail
VERSION=${1:?usage: build-deb.sh VERSION OUTDIR}
OUTDIR=${2:?usage: build-deb.sh VERSION OUTDIR}
SRC=/app/tallyd-src
UPSTREAM=${VERSION%-*}
export SOURCE_DATE_EPOCH=1700000000

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
R=$STAGE/root
umask 022
install -d -m 755 "$R/DEBIAN" "$R/usr/bin" "$R/usr/lib/tallyd" "$R/etc/tallyd" \
    "$R/usr/share/man/man1" "$R/usr/share/doc/tallyd"
install -m 755 "$SRC/bin/tallyd" "$R/usr/bin/tallyd"
install -m 644 "$SRC/lib/core.py" "$R/usr/lib/tallyd/core.py"
printf '%s\n' "$UPSTREAM" > "$R/usr/lib/tallyd/VERSION"
install -m 644 "$SRC/conf/tallyd.conf" "$R/etc/tallyd/tallyd.conf"
gzip -9n < "$SRC/doc/tallyd.1" > "$R/usr/share/man/man1/tallyd.1.gz"
install -m 644 "$SRC/copyright" "$R/usr/share/doc/tallyd/copyright"
chmod 644 "$R/usr/lib/tallyd/VERSION" "$R/usr/share/man/man1/tallyd.1.gz"

# Installed-Size: ceil(size/1024) per file, plus 1 per directory
SIZE=$(cd "$R" && find . -path ./DEBIAN -prune -o -type f -printf '%s\n' | awk '{s += int(($1 + 1023) / 1024)} END {print s + 0}')
DIRS=$(cd "$R" && find . -mindepth 1 -path ./DEBIAN -prune -o -type d -print | wc -l)
DESC=$(python3 - "$SRC/DESCRIPTION" <<'PY'
import sys
lines = open(sys.argv[1]).read().rstrip("\n").split("\n")
out = [lines[0]]
for ln in lines[1:]:
    out.append(" ." if not ln.strip() else " " + ln)
print("\n".join(out))
PY
)
cat > "$R/DEBIAN/control" <<CTL
Package: tallyd
Version: $VERSION
Architecture: all
Maintainer: Tally Team <tally@example.com>
Installed-Size: $((SIZE + DIRS))
Depends: python3 (>= 3.9)
Section: utils
Priority: optional
Description: $DESC
CTL
echo /etc/tallyd/tallyd.conf > "$R/DEBIAN/conffiles"
(cd "$R" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | LC_ALL=C sort | xargs md5sum) > "$R/DEBIAN/md5sums"
cat > "$R/DEBIAN/postinst" <<'SH'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
    if ! getent group tallyd >/dev/null; then
        groupadd --system tallyd
    fi
    if ! getent passwd tallyd >/dev/null; then
        useradd --system --gid tallyd --home-dir /var/lib/tallyd --no-create-home --shell /usr/sbin/nologin tallyd
    fi
    install -d -o tallyd -g tallyd -m 750 /var/lib/tallyd
fi
exit 0
SH
cat > "$R/DEBIAN/postrm" <<'SH'
#!/bin/sh
set -e
if [ "$1" = purge ]; then
    rm -rf /var/lib/tallyd
    if getent passwd tallyd >/dev/null; then
        userdel tallyd
    fi
    if getent group tallyd >/dev/null; then
        groupdel tallyd
    fi
fi
exit 0
SH
cat > "$R/DEBIAN/prerm" <<'SH'
#!/bin/sh
set -e
# bytecode written when tallyd runs is not in the package: drop it so removal leaves nothing behind
rm -rf /usr/lib/tallyd/__pycache__
exit 0
SH
chmod 755 "$R/DEBIAN/postinst" "$R/DEBIAN/postrm" "$R/DEBIAN/prerm"
chmod 644 "$R/DEBIAN/control" "$R/DEBIAN/conffiles" "$R/DEBIAN/md5sums"
find "$R" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$OUTDIR"
dpkg-deb --root-owner-group -Zxz --build "$R" "$OUTDIR/tallyd_${VERSION}_all.deb" >/dev/null
