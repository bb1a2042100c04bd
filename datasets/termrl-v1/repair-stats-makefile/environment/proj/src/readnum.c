#include <stdlib.h>
#include "readnum.h"

double *read_numbers(FILE *f, size_t *n) {
    size_t cap = 16, len = 0;
    double *v = malloc(cap * sizeof *v), x;
    while (fscanf(f, "%lf", &x) == 1) {
        if (len == cap) { cap *= 2; v = realloc(v, cap * sizeof *v); }
        v[len++] = x;
    }
    *n = len;
    return v;
}
