#include <stdio.h>
#include <stdlib.h>
#include "tj.h"

int main(void) {
    size_t cap = 1 << 16, n = 0, r;
    char *buf = malloc(cap + 1);
    while ((r = fread(buf + n, 1, cap - n, stdin)) > 0) {
        n += r;
        if (n == cap) { cap *= 2; buf = realloc(buf, cap + 1); }
    }
    buf[n] = 0;
    tj_counts c;
    if (tj_count(buf, &c) != 0) { fprintf(stderr, "jsonstat: invalid JSON\n"); return 1; }
    printf("objects=%ld arrays=%ld strings=%ld numbers=%ld literals=%ld\n", c.objects, c.arrays, c.strings, c.numbers, c.literals);
    free(buf);
    return 0;
}
