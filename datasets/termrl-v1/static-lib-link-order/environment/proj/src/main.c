#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "parse.h"
#include "util.h"

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        char *name = parse_name(argv[i]);
        const char *val = name ? argv[i] + strlen(name) + 1 : "";
        printf("%s %s %s\n", name ? name : "?", val, util_is_supported(val) ? "supported" : "unsupported");
        free(name);
    }
    printf("log events: %d\n", log_count());
    return 0;
}
