#include <stdio.h>
#include <string.h>
#include "kv/kv.h"

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("kvq (libkv %s)\n", kv_version());
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: kvq FILE [--stats] [KEY...]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    kv_store *s = kv_open();
    int n = kv_load(s, f);
    fclose(f);
    if (n < 0) {
        fprintf(stderr, "%s:%d: malformed line\n", argv[1], -n);
        kv_close(s);
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--stats") == 0) {
            size_t cnt;
            kv_entries(s, &cnt);
            printf("count %zu\nmean %.6f\nstddev %.6f\n", cnt, kv_mean(s), kv_stddev(s));
            continue;
        }
        double v;
        if (kv_get(s, argv[i], &v))
            printf("%s=%.6g\n", argv[i], v);
        else
            printf("%s: missing\n", argv[i]);
    }
    kv_close(s);
    return 0;
}
