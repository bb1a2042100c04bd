#include <math.h>
#include "geo.h"

double geo_area(const struct geo_shape *s) {
    switch (s->kind) {
    case GEO_CIRCLE: return M_PI * s->a * s->a;
    case GEO_RECT: return s->a * s->b;
    case GEO_SQUARE: return s->a * s->a;
    }
    return -1.0;
}

double geo_perimeter(const struct geo_shape *s) {
    switch (s->kind) {
    case GEO_CIRCLE: return 2.0 * M_PI * s->a;
    case GEO_RECT: return 2.0 * (s->a + s->b);
    case GEO_SQUARE: return 4.0 * s->a;
    }
    return -1.0;
}

void geo_scale(struct geo_shape *s, double f) {
    s->a *= f;
    if (s->kind == GEO_RECT) s->b *= f;
}

int geo_contains(const struct geo_shape *s, double px, double py) {
    double dx = px - s->x, dy = py - s->y;
    switch (s->kind) {
    case GEO_CIRCLE: return dx * dx + dy * dy <= s->a * s->a;
    case GEO_RECT: return fabs(dx) * 2.0 <= s->a && fabs(dy) * 2.0 <= s->b;
    case GEO_SQUARE: return fabs(dx) * 2.0 <= s->a && fabs(dy) * 2.0 <= s->a;
    }
    return 0;
}

const char *geo_kind_name(int kind) {
    switch (kind) {
    case GEO_CIRCLE: return "circle";
    case GEO_RECT: return "rect";
    case GEO_SQUARE: return "square";
    }
    return "unknown";
}
