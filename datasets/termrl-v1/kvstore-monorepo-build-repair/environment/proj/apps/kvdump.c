#include <stdio.h>
#include "kv/kv.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: kvdump FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    kv_store *s = kv_open();
    int r = kv_load(s, f);
    fclose(f);
    if (r < 0) {
        fprintf(stderr, "%s:%d: malformed line\n", argv[1], -r);
        return 2;
    }
    size_t n;
    const kv_entry *e = kv_entries(s, &n);
    for (size_t i = 0; i < n; i++)
        printf("%s\t%.6g\n", e[i].key, e[i].value);
    printf("# %zu entries (libkv %s, keys < %zu bytes)\n", n, kv_version(), kv_key_max());
    kv_close(s);
    return 0;
}
