#include <stdint.h>
#include <string.h>
#include "pool.h"

#define HDR sizeof(size_t)
#define MIN_BLOCK 32

static unsigned char *arena;
static size_t arena_size;

static size_t *hdr_of(void *p) { return (size_t *)((unsigned char *)p - HDR); }
static size_t bsize(const size_t *h) { return *h & ~(size_t)1; }
static int used(const size_t *h) { return (int)(*h & 1); }
static size_t *footer(size_t *h) { return (size_t *)((unsigned char *)h + bsize(h) - HDR); }
static void set(size_t *h, size_t size, int u) { *h = size | (size_t)u; *footer(h) = size | (size_t)u; }
static size_t *next_of(size_t *h) {
    unsigned char *n = (unsigned char *)h + bsize(h);
    return n < arena + arena_size ? (size_t *)n : NULL;
}

void pool_init(void *buf, size_t size) {
    arena = buf;
    arena_size = size;
    set((size_t *)arena, size, 0);
}

void *pool_alloc(size_t n) {
    if (n == 0) return NULL;
    size_t need = (n & ~(size_t)7) + 2 * HDR;
    if (need < MIN_BLOCK) need = MIN_BLOCK;
    for (size_t *h = (size_t *)arena; h; h = next_of(h)) {
        if (used(h) || bsize(h) < need) continue;
        size_t total = bsize(h);
        if (total - need > 0) {
            set(h, need, 1);
            set((size_t *)((unsigned char *)h + need), total - need, 0);
        } else {
            set(h, total, 1);
        }
        return (unsigned char *)h + HDR;
    }
    return NULL;
}

void pool_free(void *p) {
    if (!p) return;
    size_t *h = hdr_of(p);
    set(h, bsize(h), 0);
    size_t *n = next_of(h);
    if (n && !used(n)) set(h, bsize(h) + bsize(n), 0);
    if ((unsigned char *)h > arena) {
        size_t *pf = (size_t *)((unsigned char *)h - HDR);
        if (!(*pf & 1)) {
            size_t *ph = (size_t *)((unsigned char *)h - (*pf & ~(size_t)1));
            *ph = (bsize(ph) + bsize(h));
        }
    }
}

size_t pool_capacity(const void *p) { return bsize(hdr_of((void *)p)) - 2 * HDR; }

void *pool_realloc(void *p, size_t n) {
    if (!p) return pool_alloc(n);
    if (n == 0) { pool_free(p); return NULL; }
    size_t cap = pool_capacity(p);
    if (cap >= n) return p;
    pool_free(p);
    void *q = pool_alloc(n);
    if (!q) return NULL;
    memmove(q, p, cap);
    return q;
}

void pool_stats(size_t *nblocks, size_t *free_bytes, size_t *largest_free) {
    size_t nb = 0, fb = 0, lf = 0;
    for (size_t *h = (size_t *)arena; h; h = next_of(h)) {
        nb++;
        if (!used(h)) {
            size_t c = bsize(h) - 2 * HDR;
            fb += c;
            if (c > lf) lf = c;
        }
    }
    *nblocks = nb; *free_bytes = fb; *largest_free = lf;
}
