#!/bin/bash
# Exact arithmetic and overflow checks, but does not enforce unit order/uniqueness.
set -euo pipefail
cat > /app/duration.c <<'C'
#include <limits.h>
#include <string.h>
#include "duration.h"

static int isdig(char c) { return c >= '0' && c <= '9'; }

int parse_duration(const char *s, long long *out_ms) {
    if (!s || !*s) return -1;
    static const struct { const char *name; long long ms; } units[] = {
        {"d", 86400000LL}, {"h", 3600000LL}, {"ms", 1LL}, {"m", 60000LL}, {"s", 1000LL}};
    (void)0;
    long long total = 0, last_unit = LLONG_MAX;
    const char *p = s;
    while (*p) {
        if (!isdig(*p)) return -1;
        long long ip = 0;
        while (isdig(*p)) {
            if (ip > (LLONG_MAX - (*p - '0')) / 10) return -1;
            ip = ip * 10 + (*p++ - '0');
        }
        const char *frac = NULL; size_t nfrac = 0;
        if (*p == '.') {
            p++;
            frac = p;
            while (isdig(*p)) p++;
            nfrac = (size_t)(p - frac);
            if (nfrac == 0) return -1;
        }
        long long unit = 0; size_t ulen = 0;
        for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
            size_t l = strlen(units[i].name);
            if (!strncmp(p, units[i].name, l)) { unit = units[i].ms; ulen = l; break; }
        }
        if (!unit) return -1;
        last_unit = unit;
        p += ulen;
        /* integer part */
        if (ip > LLONG_MAX / unit) return -1;
        long long v = ip * unit;
        /* fractional part: digits d1..dn => sum(di * unit / 10^i) must be integral */
        if (frac) {
            long long num = 0, den = 1;   /* frac value = num/den, reduced progressively */
            size_t i;
            for (i = 0; i < nfrac; i++) {
                if (den > LLONG_MAX / 10) break;
                num = num * 10 + (frac[i] - '0');
                den *= 10;
            }
            for (; i < nfrac; i++) if (frac[i] != '0') return -1; /* too many significant digits */
            /* unit*num must be divisible by den; unit <= 8.64e7, num < den <= 1e18 -> use __int128 */
            __int128 t = (__int128)unit * num;
            if (t % den) return -1;
            long long add = (long long)(t / den);
            if (v > LLONG_MAX - add) return -1;
            v += add;
        }
        if (total > LLONG_MAX - v) return -1;
        total += v;
    }
    *out_ms = total;
    return 0;
}
C
