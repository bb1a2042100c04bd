#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "parse.h"
#include "util.h"

int main(void) {
    int fails = 0;
    version_t v;
    log_set_level(0);
    fails += parse_version("1.4.2", &v) != 0 || v.major != 1 || v.minor != 4 || v.patch != 2;
    fails += parse_version("1.4", &v) != -1;
    char *n = parse_name("abc=1");
    fails += strcmp(n, "ABC") != 0;
    free(n);
    fails += util_is_supported("1.3.9") != 0 || util_is_supported("2.0.0") != 1;
    fails += log_count() != 1;
    printf("%s\n", fails ? "FAIL" : "PASS");
    return fails != 0;
}
