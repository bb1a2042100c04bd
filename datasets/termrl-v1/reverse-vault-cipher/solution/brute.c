#include <stdint.h>
#include <stdio.h>
/* brute.c FILE: find the 24-bit key for which the first 64 plaintext bytes are printable text */
static uint32_t step(uint32_t x) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x; }
int main(int argc, char **argv) {
    unsigned char h[12], c[64];
    FILE *f = fopen(argv[1], "rb");
    if (fread(h, 1, 12, f) != 12) return 1;
    size_t n = fread(c, 1, 64, f);
    uint32_t nonce = h[4] | h[5] << 8 | h[6] << 16 | (uint32_t)h[7] << 24;
    uint32_t size = h[8] | h[9] << 8 | h[10] << 16 | (uint32_t)h[11] << 24;
    if (n > size) n = size;
    for (uint32_t k = 0; k < (1u << 24); k++) {
        uint32_t s = k ^ nonce; if (!s) s = 0x9E3779B9u;
        size_t i;
        for (i = 0; i < n; i++) {
            s = step(s);
            unsigned char p = c[i] ^ (unsigned char)(s >> 11);
            if (!((p >= 32 && p < 127) || p == '\n' || p == '\t')) break;
        }
        if (i == n) printf("%06x\n", k);
    }
    return 0;
}
