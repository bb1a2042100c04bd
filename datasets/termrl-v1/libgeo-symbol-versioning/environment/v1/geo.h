/* libgeo 1.x public API */
#ifndef GEO_H
#define GEO_H

#define GEO_VERSION_MAJOR 1
#define GEO_VERSION_MINOR 4

enum geo_kind { GEO_CIRCLE = 0, GEO_RECT = 1, GEO_SQUARE = 2 };

/* circle: a = radius; rect: a = width, b = height; square: a = side.
   (x, y) is the centre of the shape. */
struct geo_shape {
    int kind;
    double x, y;
    double a, b;
};

double geo_area(const struct geo_shape *s);
double geo_perimeter(const struct geo_shape *s);
/* scales the size of the shape by f (the centre stays) */
void geo_scale(struct geo_shape *s, double f);
/* 1 if (px, py) lies inside the shape or on its boundary, else 0 */
int geo_contains(const struct geo_shape *s, double px, double py);
const char *geo_kind_name(int kind);

#endif
