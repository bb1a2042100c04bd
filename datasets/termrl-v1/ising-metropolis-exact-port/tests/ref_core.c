/* Metropolis sweeps of ising.py in C: same generator, same visiting order, same draws. */
#include <math.h>
#include <stdint.h>

static uint64_t state;

static uint64_t next_u64(void)
{
    uint64_t x = state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static uint64_t seed_state(uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z ? z : 0x9E3779B97F4A7C15ULL;
}

/* spins: n*n, row-major; energies/mags: one slot per recorded sweep */
void ising_run(int n, long sweeps, double beta, double h, long every, uint64_t seed, signed char *spins,
               double *energies, long *mags)
{
    long sweep, rec = 0;
    int i, j;
    state = seed_state(seed);
    for (i = 0; i < n * n; i++)
        spins[i] = (next_u64() >> 63) ? 1 : -1;
    for (sweep = 1; sweep <= sweeps; sweep++) {
        for (i = 0; i < n; i++) {
            signed char *up = spins + ((i - 1 + n) % n) * n, *row = spins + i * n,
                        *down = spins + ((i + 1) % n) * n;
            for (j = 0; j < n; j++) {
                int s = row[j];
                int nb = up[j] + down[j] + row[(j - 1 + n) % n] + row[(j + 1) % n];
                double de = (double)(2 * s) * ((double)nb + h);
                if (de <= 0) {
                    row[j] = (signed char)-s;
                } else {
                    double u = (double)(next_u64() >> 11) * (1.0 / 9007199254740992.0);
                    if (u < exp(-beta * de))
                        row[j] = (signed char)-s;
                }
            }
        }
        if (sweep % every == 0) {
            long bonds = 0, mag = 0;
            for (i = 0; i < n; i++)
                for (j = 0; j < n; j++) {
                    int s = spins[i * n + j];
                    bonds += s * (spins[i * n + (j + 1) % n] + spins[((i + 1) % n) * n + j]);
                    mag += s;
                }
            energies[rec] = (double)(-bonds) - h * (double)mag;
            mags[rec] = mag;
            rec++;
        }
    }
}
