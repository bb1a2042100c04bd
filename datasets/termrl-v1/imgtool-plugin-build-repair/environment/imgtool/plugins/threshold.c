#include "core.h"

static int maxval;

int level(int v, int arg) {
    return v >= arg ? maxval : 0;
}

void plugin_init(void) { host_log("threshold ready"); }

int plugin_apply(struct image *img, int arg) {
    maxval = img->maxval;
    for (int i = 0; i < img->w * img->h; i++) img->px[i] = level(img->px[i], arg);
    return 0;
}
