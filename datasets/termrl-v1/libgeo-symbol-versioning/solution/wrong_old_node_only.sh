#!/bin/bash
# Plausible but wrong: legacy binaries need GEO_1.0, so the 2.0 functions are simply exported as GEO_1.0
# (the loader is satisfied, but 1.x binaries now call 2.0 code with the 1.x struct layout).
set -euo pipefail
cd /app/libgeo-2
cat > geo.map <<'M'
GEO_1.0 {
  global: geo_area; geo_perimeter; geo_scale; geo_contains; geo_kind_name;
};
GEO_2.0 {
  global: geo_make_ellipse;
  local: *;
} GEO_1.0;
M
sed -i 's/-soname,libgeo.so.2 -o "$OUT\/lib\/libgeo.so.2"/-soname,libgeo.so.1 -Wl,--version-script=geo.map -o "$OUT\/lib\/libgeo.so.1"/; s/ln -sf libgeo.so.2/ln -sf libgeo.so.1/' build.sh
./build.sh
