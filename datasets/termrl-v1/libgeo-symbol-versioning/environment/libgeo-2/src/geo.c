#include <math.h>
#include "geo.h"
#include "geo_util.h"

double geo_area(const struct geo_shape *s) {
    switch (s->kind) {
    case GEO_CIRCLE: return M_PI * s->a * s->a;
    case GEO_ELLIPSE: return M_PI * s->a * s->b;
    case GEO_RECT: return s->a * s->b;
    case GEO_SQUARE: return s->a * s->a;
    }
    return -1.0;
}

double geo_perimeter(const struct geo_shape *s) {
    switch (s->kind) {
    case GEO_CIRCLE: return 2.0 * M_PI * s->a;
    case GEO_ELLIPSE: return geo__ellipse_perimeter(s->a, s->b);
    case GEO_RECT: return 2.0 * (s->a + s->b);
    case GEO_SQUARE: return 4.0 * s->a;
    }
    return -1.0;
}

void geo_scale(struct geo_shape *s, double fx, double fy) {
    switch (s->kind) {
    case GEO_CIRCLE:
        if (fx == fy) { s->a *= fx; return; }
        s->kind = GEO_ELLIPSE;
        s->b = s->a * fy;
        s->a *= fx;
        return;
    case GEO_SQUARE:
        if (fx == fy) { s->a *= fx; return; }
        s->kind = GEO_RECT;
        s->b = s->a * fy;
        s->a *= fx;
        return;
    default:
        s->a *= fx;
        s->b *= fy;
    }
}

int geo_contains(const struct geo_shape *s, double px, double py) {
    double lx, ly;
    geo__to_local(s, px, py, &lx, &ly);
    switch (s->kind) {
    case GEO_CIRCLE: return lx * lx + ly * ly < s->a * s->a;
    case GEO_ELLIPSE: return (lx * lx) / (s->a * s->a) + (ly * ly) / (s->b * s->b) < 1.0;
    case GEO_RECT: return fabs(lx) * 2.0 < s->a && fabs(ly) * 2.0 < s->b;
    case GEO_SQUARE: return fabs(lx) * 2.0 < s->a && fabs(ly) * 2.0 < s->a;
    }
    return 0;
}

const char *geo_kind_name(int kind) {
    switch (kind) {
    case GEO_CIRCLE: return "circle";
    case GEO_ELLIPSE: return "ellipse";
    case GEO_RECT: return "rect";
    case GEO_SQUARE: return "square";
    }
    return "unknown";
}

struct geo_shape geo_make_ellipse(double x, double y, double a, double b, double angle) {
    struct geo_shape s = {GEO_ELLIPSE, GEO_F_FILLED, x, y, a, b, angle};
    return s;
}
