/* kvcli FILE CMD...: put K V | get K | del K | count | compact */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kvstore.h"

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: kvcli FILE put K V|get K|del K|count|compact\n"); return 2; }
    kvstore *kv = kv_open(argv[1]);
    if (!kv) { perror("open"); return 1; }
    int rc = 0;
    if (!strcmp(argv[2], "put") && argc == 5) rc = kv_put(kv, argv[3], strlen(argv[3]), argv[4], strlen(argv[4])) ? 1 : 0;
    else if (!strcmp(argv[2], "get") && argc == 4) {
        void *v; size_t n;
        if (kv_get(kv, argv[3], strlen(argv[3]), &v, &n)) { fwrite(v, 1, n, stdout); putchar('\n'); free(v); }
        else rc = 1;
    } else if (!strcmp(argv[2], "del") && argc == 4) rc = kv_del(kv, argv[3], strlen(argv[3])) == 1 ? 0 : 1;
    else if (!strcmp(argv[2], "count")) printf("%zu\n", kv_count(kv));
    else if (!strcmp(argv[2], "compact")) rc = kv_compact(kv) ? 1 : 0;
    else rc = 2;
    kv_close(kv);
    return rc;
}
