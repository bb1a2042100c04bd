#include <math.h>
#include "core.h"

void core_stats(const struct image *img, int *min, int *max, double *mean, double *sd) {
    int n = img->w * img->h;
    double s = 0, ss = 0;
    *min = *max = img->px[0];
    for (int i = 0; i < n; i++) {
        int v = img->px[i];
        if (v < *min) *min = v;
        if (v > *max) *max = v;
        s += v;
    }
    *mean = s / n;
    for (int i = 0; i < n; i++) ss += (img->px[i] - *mean) * (img->px[i] - *mean);
    *sd = sqrt(ss / n);
}
