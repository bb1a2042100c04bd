#include <stdio.h>
#include "greet.h"
#include "config.h"

int main(int argc, char **argv) {
    greet(argc > 1 ? argv[1] : "world");
    printf("total %d\n", greet_count() * (int)sizeof(GREETING));
    return 0;
}
