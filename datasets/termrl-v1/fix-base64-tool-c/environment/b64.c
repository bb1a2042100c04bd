/* b64 - base64 encoder/decoder (RFC 4648).
 *
 * usage: b64 [-d] [-u] [-w COLS]
 *   encode stdin to stdout (default) or decode (-d).
 *   -u   use the URL-safe alphabet ('-' and '_' instead of '+' and '/').
 *   -w   when encoding, wrap output lines after COLS characters (0 = no wrapping,
 *        default 76). The output always ends with a newline if it is non-empty.
 *        Empty input encodes to empty output (no newline).
 * Decoding ignores ASCII whitespace (space, \t, \n, \r) anywhere, requires correct '='
 * padding (total length of non-whitespace characters a multiple of 4, '=' only at the end,
 * at most two), and rejects characters outside the selected alphabet. On invalid input it
 * prints "b64: invalid input" to stderr and exits 1 (output written so far may remain).
 * Exit status 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char STD[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char URL[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static char *read_all(size_t *len) {
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n, stdin)) > 0) {
        n += r;
        if (n == cap) { cap *= 2; buf = realloc(buf, cap); }
    }
    *len = n;
    return buf;
}

static void encode(const char *in, size_t len, const char *alpha, int wrap) {
    size_t outlen = len / 3 * 4;
    char *out = malloc(outlen + 1);
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        int b0 = in[i], b1 = i + 1 < len ? in[i + 1] : 0, b2 = i + 2 < len ? in[i + 2] : 0;
        int v = (b0 << 16) | (b1 << 8) | b2;
        out[o++] = alpha[(v >> 18) & 63];
        out[o++] = alpha[(v >> 12) & 63];
        out[o++] = i + 1 < len ? alpha[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < len ? alpha[v & 63] : '=';
    }
    for (size_t i = 0; i < o; i++) {
        putchar(out[i]);
        if (wrap && (i + 1) % wrap == 0) putchar('\n');
    }
    if (o) putchar('\n');
    free(out);
}

static int decode(const char *in, size_t len, const char *alpha) {
    int rev[256];
    for (int i = 0; i < 256; i++) rev[i] = -1;
    for (int i = 0; i < 64; i++) rev[(unsigned char)alpha[i]] = i;
    unsigned v = 0;
    int nbits = 0, pad = 0;
    for (size_t i = 0; i < len; i++) {
        char c = in[i];
        if (c == ' ' || c == '\n' || c == '\t') continue;
        if (c == '=') { pad++; continue; }
        if (rev[(int)c] < 0) return -1;
        v = (v << 6) | rev[(int)c];
        nbits += 6;
        if (nbits >= 8) {
            nbits -= 8;
            putchar((v >> nbits) & 0xff);
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    int dec = 0, url = 0, wrap = 76, opt;
    while ((opt = getopt(argc, argv, "duw:")) != -1) {
        if (opt == 'd') dec = 1;
        else if (opt == 'u') url = 1;
        else if (opt == 'w') wrap = atoi(optarg);
        else return 2;
    }
    size_t len;
    char *in = read_all(&len);
    int rc = 0;
    if (dec) {
        if (decode(in, len, url ? URL : STD) != 0) { fprintf(stderr, "b64: invalid input\n"); rc = 1; }
    } else {
        encode(in, len, url ? URL : STD, wrap);
    }
    free(in);
    return rc;
}
