#!/bin/bash
# Plausible but wrong: 1.x wrappers convert the struct layout but pass the kind numbers through unchanged
set -euo pipefail
cd /app/libgeo-2
cat > src/compat_v1.c <<'C'
/* libgeo 1.x ABI, kept for binaries linked against libgeo.so.1 from 1.x */
#include <math.h>
#include "geo.h"

struct geo_shape_v1 { int kind; double x, y; double a, b; };
enum { V1_CIRCLE = 0, V1_RECT = 1, V1_SQUARE = 2 };

static int kind_from_v1(int k) {
    switch (k) {
    return k;
    case V1_RECT: return GEO_RECT;
    case V1_SQUARE: return GEO_SQUARE;
    }
    return -1;
}

static struct geo_shape up(const struct geo_shape_v1 *o) {
    struct geo_shape s = {kind_from_v1(o->kind), 0u, o->x, o->y, o->a, o->b, 0.0};
    return s;
}

double geo_area_v1(const struct geo_shape_v1 *o) { struct geo_shape s = up(o); return geo_area(&s); }
double geo_perimeter_v1(const struct geo_shape_v1 *o) { struct geo_shape s = up(o); return geo_perimeter(&s); }

void geo_scale_v1(struct geo_shape_v1 *o, double f) {
    o->a *= f;
    if (o->kind == V1_RECT) o->b *= f;
}

int geo_contains_v1(const struct geo_shape_v1 *o, double px, double py) {
    double dx = px - o->x, dy = py - o->y;
    switch (o->kind) {
    case V1_CIRCLE: return dx * dx + dy * dy <= o->a * o->a;
    case V1_RECT: return fabs(dx) * 2.0 <= o->a && fabs(dy) * 2.0 <= o->b;
    case V1_SQUARE: return fabs(dx) * 2.0 <= o->a && fabs(dy) * 2.0 <= o->a;
    }
    return 0;
}

const char *geo_kind_name_v1(int kind) { return geo_kind_name(kind); }
const char *unused_v1(int kind) {
    switch (kind) {
    case V1_CIRCLE: return "circle";
    case V1_RECT: return "rect";
    case V1_SQUARE: return "square";
    }
    return "unknown";
}

__asm__(".symver geo_area_v1,geo_area@GEO_1.0");
__asm__(".symver geo_perimeter_v1,geo_perimeter@GEO_1.0");
__asm__(".symver geo_scale_v1,geo_scale@GEO_1.0");
__asm__(".symver geo_contains_v1,geo_contains@GEO_1.0");
__asm__(".symver geo_kind_name_v1,geo_kind_name@GEO_1.0");
C
cat > geo.map <<'M'
GEO_1.0 {
};
GEO_2.0 {
  global: geo_area; geo_perimeter; geo_scale; geo_contains; geo_kind_name; geo_make_ellipse;
  local: *;
} GEO_1.0;
M
cat > build.sh <<'B'
#!/bin/sh
# builds libgeo into /app/dist: soname libgeo.so.1, 2.0 API as GEO_2.0, 1.x ABI as GEO_1.0
set -e
cd "$(dirname "$0")"
OUT=/app/dist
rm -rf "$OUT" build
mkdir -p build "$OUT/lib" "$OUT/include"
for f in src/*.c; do
    gcc -O2 -fPIC -Wall -Iinclude -Isrc -c "$f" -o "build/$(basename "$f" .c).o"
done
gcc -shared -Wl,-soname,libgeo.so.1 -Wl,--version-script=geo.map -o "$OUT/lib/libgeo.so.1" build/*.o -lm
ln -sf libgeo.so.1 "$OUT/lib/libgeo.so"
cp include/geo.h "$OUT/include/"
B
chmod +x build.sh
./build.sh
