#!/bin/bash
# Builds an upstream repository deterministically, exports a snapshot and patches, then deletes it.
set -euo pipefail
export GIT_COMMITTER_NAME="Release Bot" GIT_COMMITTER_EMAIL="release-bot@example.org"
who() { export GIT_AUTHOR_NAME="$1" GIT_AUTHOR_EMAIL="$2"; }
at() { export GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"; }
U=/tmp/upstream
git init -q -b trunk $U
cd $U
git config gc.auto 0
mkdir -p bin lib
cat > lib/geo.py <<'PY'
import math


def haversine(lat1, lon1, lat2, lon2):
    r = 6371.0
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))
PY
cat > bin/geodist <<'SH'
#!/bin/sh
exec python3 -c "import sys; sys.path.insert(0, '$(dirname "$0")/../lib'); from geo import haversine; print(round(haversine(*map(float, sys.argv[1:5])), 3))" "$@"
SH
chmod +x bin/geodist
printf 'geodist computes great-circle distances' > README   # no trailing newline
who "Ana Costa" "ana@example.org"; at "2024-11-02T08:00:00"
git add -A && git commit -q -m "Import project"
git archive --format=tar -o /tmp/snapshot.tar HEAD

who "Ana Costa" "ana@example.org"; at "2024-11-03T09:12:00"
printf '\n\nUsage: bin/geodist LAT1 LON1 LAT2 LON2\n' >> README
git commit -q -am "Document usage" -m "Explain the command line of bin/geodist."

who "Bjorn Lund" "bjorn@example.se"; at "2024-11-05T17:40:00"
cat >> lib/geo.py <<'PY'


def bearing(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    x = math.sin(dl) * math.cos(p2)
    y = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return (math.degrees(math.atan2(x, y)) + 360) % 360
PY
git commit -q -am "Add initial bearing"

who "Chidi Okafor" "chidi@example.ng"; at "2024-11-06T11:05:00"
sed -i 's/    r = 6371.0/    r = 6371.0088  # mean Earth radius (IUGG)/' lib/geo.py
git commit -q -am "Use the IUGG mean Earth radius"

who "Ana Costa" "ana@example.org"; at "2024-11-08T14:30:00"
cat > lib/units.py <<'PY'
KM_PER_MILE = 1.609344
KM_PER_NMI = 1.852


def km_to(unit, km):
    return {"km": km, "mi": km / KM_PER_MILE, "nmi": km / KM_PER_NMI}[unit]
PY
git add lib/units.py && git commit -q -m "Add unit conversions"

who "Bjorn Lund" "bjorn@example.se"; at "2024-11-09T10:00:00"
cat >> lib/geo.py <<'PY'


def midpoint(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    l1 = math.radians(lon1)
    dl = math.radians(lon2 - lon1)
    bx = math.cos(p2) * math.cos(dl)
    by = math.cos(p2) * math.sin(dl)
    pm = math.atan2(math.sin(p1) + math.sin(p2), math.sqrt((math.cos(p1) + bx) ** 2 + by ** 2))
    lm = l1 + math.atan2(by, math.cos(p1) + bx)
    return math.degrees(pm), (math.degrees(lm) + 540) % 360 - 180
PY
printf 'Also: bearing and midpoint helpers in lib/geo.py.\n' >> README
git commit -q -am "Add midpoint helper"

who "Chidi Okafor" "chidi@example.ng"; at "2024-11-10T16:20:00"
printf '1.0\n' > VERSION
git add VERSION && git commit -q -m "Release 1.0"

mkdir -p /app/recovery/patches
git format-patch -q -o /tmp/p trunk~6..trunk
# Patch files were renamed by topic when they were mailed around; their order is lost.
for f in /tmp/p/*.patch; do
  n=$(basename "$f" | sed 's/^[0-9]*-//')
  cp "$f" "/app/recovery/patches/$n"
done
cp /tmp/snapshot.tar /app/recovery/snapshot.tar
git rev-parse trunk > /tmp/expected_tip
cd /
rm -rf $U /tmp/p /tmp/snapshot.tar
