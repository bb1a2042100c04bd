/* libgeo 2.0 public API */
#ifndef GEO_H
#define GEO_H

#define GEO_VERSION_MAJOR 2
#define GEO_VERSION_MINOR 0

enum geo_kind { GEO_CIRCLE = 0, GEO_ELLIPSE = 1, GEO_RECT = 2, GEO_SQUARE = 3 };

#define GEO_F_FILLED 0x1u

/* circle: a = radius; ellipse: a, b = semi-axes; rect: a = width, b = height;
   square: a = side. (x, y) is the centre; angle (radians) rotates the shape
   counter-clockwise about its centre. */
struct geo_shape {
    int kind;
    unsigned flags;
    double x, y;
    double a, b;
    double angle;
};

double geo_area(const struct geo_shape *s);
double geo_perimeter(const struct geo_shape *s);
/* scales the shape by fx along its own x axis and fy along its own y axis;
   a circle scaled unevenly becomes an ellipse, a square a rect */
void geo_scale(struct geo_shape *s, double fx, double fy);
/* 1 if (px, py) lies strictly inside the shape, else 0 (the boundary is outside) */
int geo_contains(const struct geo_shape *s, double px, double py);
const char *geo_kind_name(int kind);
struct geo_shape geo_make_ellipse(double x, double y, double a, double b, double angle);

#endif
