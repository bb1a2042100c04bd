#include <stdio.h>
#include "tally.h"

int main(int argc, char **argv) {
    tally *t = tally_new();
    char buf[256];
    while (scanf("%255s", buf) == 1) tally_add(t, buf);
    printf("libtally %s\n", tally_version());
    printf("distinct %d\n", tally_distinct(t));
    for (int i = 1; i < argc; i++) printf("%s %d\n", argv[i], tally_get(t, argv[i]));
    tally_free(t);
    return 0;
}
