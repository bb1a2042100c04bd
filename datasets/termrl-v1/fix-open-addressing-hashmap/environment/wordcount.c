/* Counts words on stdin; "-word" lines delete a word. Prints "<distinct> <lookups...>". */
#include <stdio.h>
#include "hashmap.h"

int main(int argc, char **argv) {
    hashmap *m = hm_new();
    char w[256];
    while (scanf("%255s", w) == 1) {
        if (w[0] == '-') { hm_del(m, w + 1); continue; }
        long c = 0;
        hm_get(m, w, &c);
        hm_put(m, w, c + 1);
    }
    printf("%zu", hm_len(m));
    for (int i = 1; i < argc; i++) { long c = 0; hm_get(m, argv[i], &c); printf(" %ld", c); }
    printf("\n");
    hm_free(m);
    return 0;
}
