#include <stdio.h>
#include <stdlib.h>
#include "strutil.h"

int main(void) {
    char *t = su_trim("   hello world  ");
    printf("[%s]\n", t);
    size_t n;
    char **f = su_split("a,b,,c", ',', &n);
    char *j = su_join(f, n, " | ");
    printf("%zu fields: [%s]\n", n, j);
    free(t); free(j); su_free_list(f, n);
    return 0;
}
