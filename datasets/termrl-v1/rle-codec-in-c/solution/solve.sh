#!/bin/bash
set -euo pipefail
cat > /app/rle.c <<'C'
#include <stdio.h>
#include <string.h>

static int encode(void) {
    int c, prev = EOF, n = 0;
    while ((c = getchar()) != EOF) {
        if (c == prev && n < 255) { n++; continue; }
        if (n) { putchar(n); putchar(prev); }
        prev = c; n = 1;
    }
    if (n) { putchar(n); putchar(prev); }
    return 0;
}

static int decode(void) {
    int n, b;
    while ((n = getchar()) != EOF) {
        b = getchar();
        if (b == EOF) { fprintf(stderr, "rle: truncated record\n"); return 1; }
        if (n == 0) { fprintf(stderr, "rle: zero count\n"); return 1; }
        for (int i = 0; i < n; i++) putchar(b);
    }
    return 0;
}

int main(int argc, char **argv) {
    int r;
    if (argc == 2 && !strcmp(argv[1], "-e")) r = encode();
    else if (argc == 2 && !strcmp(argv[1], "-d")) r = decode();
    else { fprintf(stderr, "usage: rle -e|-d\n"); return 2; }
    if (fflush(stdout) != 0) return 1;
    return r;
}
C
gcc -O2 -Wall -o /app/rle /app/rle.c
