#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"
#include "parse.h"

int log_level = 0;   /* verbosity of the util module */

char *str_dup_upper(const char *s) {
    char *d = malloc(strlen(s) + 1);
    for (size_t i = 0; (d[i] = (char)toupper((unsigned char)s[i])); i++) {}
    return d;
}

int util_is_supported(const char *version) {
    version_t v;
    if (parse_version(version, &v) != 0) return 0;
    return v.major == 2 || (v.major == 1 && v.minor >= 4);
}
