/* imgstat: prints "W H MIN MAX MEAN SD" of the plain PGM on stdin */
#include <stdio.h>
#include "core.h"

int main(void) {
    struct image img;
    int mn, mx;
    double mean, sd;
    if (core_read_pgm(stdin, &img)) {
        fprintf(stderr, "imgstat: bad PGM\n");
        return 2;
    }
    core_stats(&img, &mn, &mx, &mean, &sd);
    printf("%d %d %d %d %.4f %.4f\n", img.w, img.h, mn, mx, mean, sd);
    return 0;
}
