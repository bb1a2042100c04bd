#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t derive(const char *pw) {
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)pw; *p; p++) { h ^= *p; h *= 16777619u; }
    return (h ^ (h >> 24)) & 0xFFFFFFu;
}

static uint32_t step(uint32_t x) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x; }

int main(int argc, char **argv) {
    if (argc != 5 || strcmp(argv[1], "-p") != 0) { fprintf(stderr, "usage: vaultcrypt -p PASSWORD IN OUT\n"); return 2; }
    FILE *in = fopen(argv[3], "rb");
    if (!in) { perror("in"); return 1; }
    fseek(in, 0, SEEK_END); long n = ftell(in); fseek(in, 0, SEEK_SET);
    long padded = (n + 15) / 16 * 16; if (padded == n) padded += 16;
    unsigned char *buf = calloc(padded, 1);
    if (fread(buf, 1, n, in) != (size_t)n) { perror("read"); return 1; }
    fclose(in);
    unsigned char nonce[4];
    FILE *r = fopen("/dev/urandom", "rb"); fread(nonce, 1, 4, r);
    for (long i = n; i < padded; i++) buf[i] = (unsigned char)fgetc(r);
    fclose(r);
    uint32_t nv = nonce[0] | nonce[1] << 8 | nonce[2] << 16 | (uint32_t)nonce[3] << 24;
    uint32_t s = derive(argv[2]) ^ nv;
    if (s == 0) s = 0x9E3779B9u;
    for (long i = 0; i < padded; i++) { s = step(s); buf[i] ^= (unsigned char)(s >> 11); }
    FILE *out = fopen(argv[4], "wb");
    if (!out) { perror("out"); return 1; }
    uint32_t sz = (uint32_t)n;
    fwrite("VLT2", 1, 4, out); fwrite(nonce, 1, 4, out);
    unsigned char szb[4] = {sz & 255, sz >> 8 & 255, sz >> 16 & 255, sz >> 24};
    fwrite(szb, 1, 4, out); fwrite(buf, 1, padded, out); fclose(out);
    return 0;
}
