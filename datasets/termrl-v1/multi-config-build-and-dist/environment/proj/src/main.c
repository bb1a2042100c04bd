#include <stdio.h>
#include <stdlib.h>
#include "rangesum.h"

#ifndef APP_VERSION
#define APP_VERSION "unknown"
#endif
#ifndef APP_CONFIG
#define APP_CONFIG "unknown"
#endif

int main(int argc, char **argv) {
    if (argc == 2 && argv[1][0] == '-' && argv[1][1] == 'v') {
        printf("rangesum %s (%s)\n", APP_VERSION, APP_CONFIG);
        return 0;
    }
    long v[64]; int n = 0;
    while (n < 64 && scanf("%ld", &v[n]) == 1) n++;
    int lo = argc > 1 ? atoi(argv[1]) : 0, hi = argc > 2 ? atoi(argv[2]) : n;
    printf("%ld\n", range_sum(v, n, lo, hi));
    return 0;
}
