#include <stdlib.h>
#include <string.h>
#include "core.h"

void plugin_init(void) { host_log("blur ready"); }

static int at(const struct image *img, const int *src, int x, int y) {
    x = x < 0 ? 0 : x >= img->w ? img->w - 1 : x;
    y = y < 0 ? 0 : y >= img->h ? img->h - 1 : y;
    return src[y * img->w + x];
}

int plugin_apply(struct image *img, int arg) {
    (void)arg;
    int n = img->w * img->h;
    int *src = malloc(sizeof(int) * n);
    if (!src) return 1;
    memcpy(src, img->px, sizeof(int) * n);
    for (int y = 0; y < img->h; y++)
        for (int x = 0; x < img->w; x++) {
            int s = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) s += at(img, src, x + dx, y + dy);
            img->px[y * img->w + x] = (s + 4) / 9;
        }
    free(src);
    return 0;
}
