#include "core.h"

void plugin_init(void) { host_log("invert ready"); }

int plugin_apply(struct image *img, int arg) {
    (void)arg;
    for (int i = 0; i < img->w * img->h; i++) img->px[i] = img->maxval - img->px[i];
    return 0;
}
