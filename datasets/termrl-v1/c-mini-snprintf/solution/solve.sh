#!/bin/bash
set -euo pipefail
cat > /app/minifmt.c <<'EOF_C'
#include "minifmt.h"

#include <string.h>

struct out {
    char *buf;
    size_t size;
    size_t n;
};

static void put(struct out *o, char c)
{
    if (o->size && o->n < o->size - 1)
        o->buf[o->n] = c;
    o->n++;
}

static void pad(struct out *o, char c, int count)
{
    while (count-- > 0)
        put(o, c);
}

int mini_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct out o = {buf, size, 0};
    const char *p = fmt;
    while (*p) {
        if (*p != '%') {
            put(&o, *p++);
            continue;
        }
        p++;
        int minus = 0, plus = 0, space = 0, alt = 0, zero = 0;
        for (;; p++) {
            if (*p == '-') minus = 1;
            else if (*p == '+') plus = 1;
            else if (*p == ' ') space = 1;
            else if (*p == '#') alt = 1;
            else if (*p == '0') zero = 1;
            else break;
        }
        int width = 0;
        if (*p == '*') {
            width = va_arg(ap, int);
            if (width < 0) {
                minus = 1;
                width = -width;
            }
            p++;
        } else {
            while (*p >= '0' && *p <= '9')
                width = width * 10 + (*p++ - '0');
        }
        int prec = -1;
        if (*p == '.') {
            p++;
            prec = 0;
            if (*p == '*') {
                prec = va_arg(ap, int);
                if (prec < 0)
                    prec = -1;
                p++;
            } else {
                while (*p >= '0' && *p <= '9')
                    prec = prec * 10 + (*p++ - '0');
            }
        }
        int len = 0; /* 0 int, 1 hh, 2 h, 3 l, 4 ll, 5 z */
        if (p[0] == 'h' && p[1] == 'h') { len = 1; p += 2; }
        else if (p[0] == 'h') { len = 2; p++; }
        else if (p[0] == 'l' && p[1] == 'l') { len = 4; p += 2; }
        else if (p[0] == 'l') { len = 3; p++; }
        else if (p[0] == 'z') { len = 5; p++; }
        char conv = *p;
        if (!conv)
            break;
        p++;
        if (conv == '%') {
            put(&o, '%');
            continue;
        }
        if (conv == 'c') {
            char c = (char)va_arg(ap, int);
            if (!minus) pad(&o, ' ', width - 1);
            put(&o, c);
            if (minus) pad(&o, ' ', width - 1);
            continue;
        }
        if (conv == 's') {
            const char *s = va_arg(ap, const char *);
            if (!s) s = "(null)";
            int sl = 0;
            while (s[sl] && (prec < 0 || sl < prec)) sl++;
            if (!minus) pad(&o, ' ', width - sl);
            for (int i = 0; i < sl; i++) put(&o, s[i]);
            if (minus) pad(&o, ' ', width - sl);
            continue;
        }
        unsigned long long mag;
        int neg = 0;
        if (conv == 'd' || conv == 'i') {
            long long v;
            switch (len) {
            case 1: v = (signed char)va_arg(ap, int); break;
            case 2: v = (short)va_arg(ap, int); break;
            case 3: v = va_arg(ap, long); break;
            case 4: v = va_arg(ap, long long); break;
            case 5: v = (long long)va_arg(ap, long); break; /* ssize_t */
            default: v = va_arg(ap, int);
            }
            neg = v < 0;
            mag = neg ? 0ULL - (unsigned long long)v : (unsigned long long)v;
        } else {
            switch (len) {
            case 1: mag = (unsigned char)va_arg(ap, unsigned int); break;
            case 2: mag = (unsigned short)va_arg(ap, unsigned int); break;
            case 3: mag = va_arg(ap, unsigned long); break;
            case 4: mag = va_arg(ap, unsigned long long); break;
            case 5: mag = va_arg(ap, size_t); break;
            default: mag = va_arg(ap, unsigned int);
            }
        }
        unsigned base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X') ? 16 : 10;
        const char *dig = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
        char tmp[32];
        int nd = 0;
        if (!(mag == 0 && prec == 0)) {
            do {
                tmp[nd++] = dig[mag % base];
                mag /= base;
            } while (mag);
        }
        int zeros = prec > nd ? prec - nd : 0;
        if (conv == 'o' && alt && zeros == 0 && (nd == 0 || tmp[nd - 1] != '0'))
            zeros = 1;
        const char *prefix = "";
        if (conv == 'd' || conv == 'i')
            prefix = neg ? "-" : plus ? "+" : space ? " " : "";
        else if (alt && (conv == 'x' || conv == 'X') && nd > 0 && !(nd == 1 && tmp[0] == '0'))
            prefix = conv == 'x' ? "0x" : "0X";
        int pl = (int)strlen(prefix);
        int total = pl + zeros + nd;
        if (zero && !minus && prec < 0 && width > total) {
            zeros += width - total;
            total = width;
        }
        if (!minus) pad(&o, ' ', width - total);
        for (int i = 0; i < pl; i++) put(&o, prefix[i]);
        pad(&o, '0', zeros);
        while (nd) put(&o, tmp[--nd]);
        if (minus) pad(&o, ' ', width - total);
    }
    if (size)
        buf[o.n < size ? o.n : size - 1] = '\0';
    return (int)o.n;
}

int mini_snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = mini_vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return r;
}
EOF_C
