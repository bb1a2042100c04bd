#include <stdlib.h>
#include <string.h>
#include "duration.h"

int parse_duration(const char *s, long long *out_ms) {
    if (!s || !*s) return -1;
    long long total = 0;
    const char *p = s;
    while (*p) {
        char *end;
        if (*p < '0' || *p > '9') return -1;
        double v = strtod(p, &end);
        if (end == p) return -1;
        p = end;
        long long unit;
        if (*p == 'd') { unit = 86400000LL; p++; }
        else if (*p == 'h') { unit = 3600000LL; p++; }
        else if (*p == 'm') { unit = 60000LL; p++; }
        else if (*p == 's') { unit = 1000LL; p++; }
        else if (p[0] == 'm' && p[1] == 's') { unit = 1LL; p += 2; }
        else return -1;
        total += (long long)(v * unit);
    }
    *out_ms = total;
    return 0;
}
