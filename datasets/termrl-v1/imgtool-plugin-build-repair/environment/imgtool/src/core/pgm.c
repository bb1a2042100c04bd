#include <ctype.h>
#include <stdlib.h>
#include "core.h"

static int next_int(FILE *f, int *out) {
    int c;
    for (;;) {
        c = fgetc(f);
        if (c == EOF) return -1;
        if (c == '#') {
            while (c != '\n' && c != EOF) c = fgetc(f);
            continue;
        }
        if (!isspace(c)) break;
    }
    ungetc(c, f);
    return fscanf(f, "%d", out) == 1 ? 0 : -1;
}

int core_read_pgm(FILE *f, struct image *img) {
    char magic[3] = {0};
    if (fscanf(f, "%2s", magic) != 1 || magic[0] != 'P' || magic[1] != '2') return -1;
    if (next_int(f, &img->w) || next_int(f, &img->h) || next_int(f, &img->maxval)) return -1;
    if (img->w <= 0 || img->h <= 0 || img->maxval <= 0) return -1;
    img->px = malloc(sizeof(int) * img->w * img->h);
    if (!img->px) return -1;
    for (int i = 0; i < img->w * img->h; i++)
        if (next_int(f, &img->px[i])) return -1;
    return 0;
}

void core_write_pgm(FILE *f, const struct image *img) {
    fprintf(f, "P2\n%d %d\n%d\n", img->w, img->h, img->maxval);
    for (int y = 0; y < img->h; y++)
        for (int x = 0; x < img->w; x++)
            fprintf(f, "%d%c", img->px[y * img->w + x], x == img->w - 1 ? '\n' : ' ');
}
