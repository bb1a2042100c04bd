#include <math.h>
#include "geo_util.h"

/* the point (px, py) in the shape's own frame (centre at the origin, axes along the shape) */
void geo__to_local(const struct geo_shape *s, double px, double py, double *lx, double *ly) {
    double dx = px - s->x, dy = py - s->y;
    double c = cos(s->angle), sn = sin(s->angle);
    *lx = dx * c + dy * sn;
    *ly = -dx * sn + dy * c;
}

double geo__ellipse_perimeter(double a, double b) {
    return M_PI * (3.0 * (a + b) - sqrt((3.0 * a + b) * (a + 3.0 * b)));
}
