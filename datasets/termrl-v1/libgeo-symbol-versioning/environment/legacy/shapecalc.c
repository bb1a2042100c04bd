/* shapecalc (built against libgeo 1.4): one shape per input line
     KIND X Y A B F PX PY      (KIND: circle | rect | square)
   prints: NAME AREA PERIMETER CONTAINS(PX,PY) then, after geo_scale(F): AREA PERIMETER A B */
#include <stdio.h>
#include <string.h>
#include "geo.h"

int main(void) {
    char kind[32];
    double x, y, a, b, f, px, py;
    struct geo_shape shapes[2];
    while (scanf("%31s %lf %lf %lf %lf %lf %lf %lf", kind, &x, &y, &a, &b, &f, &px, &py) == 8) {
        int k = !strcmp(kind, "circle") ? GEO_CIRCLE : !strcmp(kind, "rect") ? GEO_RECT : GEO_SQUARE;
        struct geo_shape s = {k, x, y, a, b};
        shapes[0] = s;
        shapes[1] = s;
        printf("%s %.6f %.6f %d", geo_kind_name(shapes[0].kind), geo_area(&shapes[0]), geo_perimeter(&shapes[0]),
               geo_contains(&shapes[0], px, py));
        geo_scale(&shapes[0], f);
        printf(" %.6f %.6f %.6f %.6f %d %.6f\n", geo_area(&shapes[0]), geo_perimeter(&shapes[0]), shapes[0].a, shapes[0].b,
               shapes[1].kind, shapes[1].x);
    }
    return 0;
}
