#!/bin/bash
set -euo pipefail
cat > /app/u8scan.c <<'EOF'
/* u8scan: list the code points of a UTF-8 file, stopping at the first ill-formed sequence. */
#include <stdio.h>
#include <stdlib.h>

static unsigned char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Number of bytes of a sequence that starts with lead byte c, 0 if c cannot start one. */
static int seq_len(unsigned char c)
{
    if (c < 0x80)
        return 1;
    if ((c & 0xE0) == 0xC0)
        return 2;
    if ((c & 0xF0) == 0xE0)
        return 3;
    if ((c & 0xF8) == 0xF0)
        return 4;
    return 0;
}

static const unsigned long min_value[5] = {0, 0, 0x80, 0x800, 0x10000};

static int is_cont(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: u8scan FILE\n");
        return 2;
    }
    size_t n;
    unsigned char *s = read_all(argv[1], &n);
    if (!s) {
        perror(argv[1]);
        return 2;
    }
    size_t i = 0;
    while (i < n) {
        int len = seq_len(s[i]);
        if (len > 0 && i + len > n)
            break; /* incomplete sequence at the end: nothing more to decode */
        int ok = len > 0;
        unsigned long cp = 0;
        if (ok) {
            cp = len == 1 ? s[i] : (unsigned long)(s[i] & (0x7F >> len));
            for (int k = 1; k < len; k++) {
                if (!is_cont(s[i + k])) {
                    ok = 0;
                    break;
                }
                cp = (cp << 6) | (s[i + k] & 0x3F);
            }
        }
        if (ok && (cp < min_value[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)))
            ok = 0;
        if (!ok) {
            fflush(stdout);
            fprintf(stderr, "ill-formed UTF-8 at byte offset %zu\n", i);
            printf("ERROR %zu\n", i);
            free(s);
            return 1;
        }
        printf("U+%04lX\n", cp);
        i += len;
    }
    free(s);
    return 0;
}
EOF
gcc -O2 -std=c11 -Wall -o /app/u8scan /app/u8scan.c
