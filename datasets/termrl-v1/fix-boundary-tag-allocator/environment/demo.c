#include <stdio.h>
#include <string.h>
#include "pool.h"

static _Alignas(8) unsigned char mem[1024];

int main(void) {
    pool_init(mem, sizeof mem);
    char *a = pool_alloc(20), *b = pool_alloc(100), *c = pool_alloc(7);
    strcpy(a, "hello allocator!!!!");
    strcpy(c, "abcdef");
    pool_free(b);
    a = pool_realloc(a, 200);
    printf("%s %s\n", a, c);
    pool_free(a); pool_free(c);
    size_t nb, fb, lf;
    pool_stats(&nb, &fb, &lf);
    printf("blocks=%zu free=%zu largest=%zu\n", nb, fb, lf);
    return 0;
}
