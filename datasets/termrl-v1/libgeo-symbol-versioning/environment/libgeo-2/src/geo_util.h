#ifndef GEO_UTIL_H
#define GEO_UTIL_H
#include "geo.h"
void geo__to_local(const struct geo_shape *s, double px, double py, double *lx, double *ly);
double geo__ellipse_perimeter(double a, double b);
#endif
