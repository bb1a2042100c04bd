#!/bin/bash
# Plausible but wrong: keep the soname libgeo.so.1 and version everything GEO_2.0, no 1.x compatibility.
set -euo pipefail
cd /app/libgeo-2
cat > geo.map <<'M'
GEO_2.0 {
  global: geo_area; geo_perimeter; geo_scale; geo_contains; geo_kind_name; geo_make_ellipse;
  local: *;
};
M
sed -i 's/-soname,libgeo.so.2 -o "$OUT\/lib\/libgeo.so.2"/-soname,libgeo.so.1 -Wl,--version-script=geo.map -o "$OUT\/lib\/libgeo.so.1"/; s/ln -sf libgeo.so.2/ln -sf libgeo.so.1/' build.sh
./build.sh
