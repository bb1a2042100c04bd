#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "strutil.h"

char *su_trim(const char *s) {
    size_t start = 0, end = strlen(s);
    while (isspace((unsigned char)s[start])) start++;
    while (isspace((unsigned char)s[end - 1])) end--;
    size_t len = end - start;
    char *out = malloc(len);
    memcpy(out, s + start, len);
    out[len] = '\0';
    return out;
}

char **su_split(const char *s, char delim, size_t *count) {
    size_t n = 0;
    for (const char *p = s; *p; p++)
        if (*p == delim) n++;
    char **out = malloc(n * sizeof *out);
    size_t i = 0;
    const char *start = s;
    for (const char *p = s; *p; p++) {
        if (*p == delim) {
            size_t len = p - start;
            out[i] = malloc(len + 1);
            memcpy(out[i], start, len);
            out[i][len] = '\0';
            i++;
            start = p + 1;
        }
    }
    *count = i;
    return out;
}

char *su_join(char *const *parts, size_t n, const char *sep) {
    size_t total = 1, seplen = strlen(sep);
    for (size_t i = 0; i < n; i++) total += strlen(parts[i]) + seplen;
    char *out = malloc(total);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        strcat(out, parts[i]);
        strcat(out, sep);
    }
    return out;
}

void su_free_list(char **list, size_t n) {
    for (size_t i = 0; i < n; i++) free(list[i]);
    free(list);
}
