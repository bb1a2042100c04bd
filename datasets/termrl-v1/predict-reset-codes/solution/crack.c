#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
/* crack r0 r1 ... : prints the 48-bit LCG state right after the first next(31) call */
#define MULT 0x5DEECE66DULL
#define ADD 0xBULL
#define MASK ((1ULL << 48) - 1)
#define BOUND 1000000
static int next_int(uint64_t *s) {
    uint32_t u;
    *s = (*s * MULT + ADD) & MASK;
    u = (uint32_t)(*s >> 17);
    for (;;) {
        uint32_t r = u % BOUND;
        if ((uint64_t)u - r + (BOUND - 1) < (1ULL << 31)) return (int)r;
        *s = (*s * MULT + ADD) & MASK;
        u = (uint32_t)(*s >> 17);
    }
}
int main(int argc, char **argv) {
    int n = argc - 1, obs[64];
    for (int i = 0; i < n; i++) obs[i] = atoi(argv[i + 1]);
    for (uint64_t u0 = obs[0]; u0 < (1ULL << 31); u0 += BOUND) {
        for (uint64_t low = 0; low < (1ULL << 17); low++) {
            uint64_t s0 = (u0 << 17) | low, s = s0;
            int i;
            for (i = 1; i < n; i++) if (next_int(&s) != obs[i]) break;
            if (i == n) { printf("%llu\n", (unsigned long long)s0); return 0; }
        }
    }
    return 1;
}
