#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "parse.h"
#include "util.h"

int parse_version(const char *s, version_t *v) {
    int n = 0;
    if (sscanf(s, "%d.%d.%d%n", &v->major, &v->minor, &v->patch, &n) != 3 || s[n]) {
        log_msg(1, "bad version");
        return -1;
    }
    return 0;
}

char *parse_name(const char *line) {
    const char *eq = strchr(line, '=');
    if (!eq) { log_msg(1, "no '='"); return NULL; }
    char *tmp = malloc((size_t)(eq - line) + 1);
    memcpy(tmp, line, (size_t)(eq - line));
    tmp[eq - line] = 0;
    char *up = str_dup_upper(tmp);
    free(tmp);
    return up;
}
