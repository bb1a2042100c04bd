#ifndef CORE_H
#define CORE_H
#include <stdio.h>

struct image {
    int w, h, maxval;
    int *px; /* w*h grey levels, row by row */
};

int core_read_pgm(FILE *f, struct image *img);          /* plain PGM (P2); 0 on success */
void core_write_pgm(FILE *f, const struct image *img);  /* plain PGM (P2) */
int core_clamp(int v, int maxval);                       /* into 0..maxval */
void core_stats(const struct image *img, int *min, int *max, double *mean, double *sd);

/* provided by the imgtool executable, for plugins */
void host_log(const char *msg);

#endif
