#include <stdio.h>
#include <stdlib.h>
#include "readnum.h"
#include "stats.h"

int main(void) {
    size_t n;
    double *v = read_numbers(stdin, &n);
    if (n == 0) { fprintf(stderr, "no input\n"); return 1; }
    printf("count %zu\n", n);
    printf("mean %.6f\n", stats_mean(v, n));
    printf("stddev %.6f\n", stats_stddev(v, n));
    printf("median %.6f\n", stats_median(v, n));
    free(v);
    return 0;
}
