#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "kv/kv.h"

static char *trim(char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    char *e = p + strlen(p);
    while (e > p && isspace((unsigned char)e[-1]))
        *--e = 0;
    return p;
}

int kv_load(kv_store *s, FILE *in)
{
    char line[512];
    int lineno = 0, count = 0;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        char *p = trim(line);
        if (!*p || *p == '#')
            continue;
        char *eq = strchr(p, '=');
        if (!eq)
            return -lineno;
        *eq = 0;
        char *key = trim(p), *val = trim(eq + 1), *end;
        double v = strtod(val, &end);
        if (!*key || end == val || *end)
            return -lineno;
        if (kv_set(s, key, v) < 0)
            return -lineno;
        count++;
    }
    return count;
}
