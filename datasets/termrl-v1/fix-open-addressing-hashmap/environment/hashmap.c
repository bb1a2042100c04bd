#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hashmap.h"

enum { EMPTY = 0, FULL = 1, TOMB = 2 };

struct slot { char *key; long value; int state; };
struct hashmap { struct slot *slots; size_t cap, len, used; };

static uint64_t hash(const char *s) {
    uint64_t h = 1469598103934665603ULL;
    while (*s) { h ^= (unsigned char)*s++; h *= 1099511628211ULL; }
    return h;
}

hashmap *hm_new(void) {
    hashmap *m = calloc(1, sizeof *m);
    m->cap = 8;
    m->slots = calloc(m->cap, sizeof *m->slots);
    return m;
}

void hm_free(hashmap *m) {
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].state == FULL) free(m->slots[i].key);
    free(m->slots);
    free(m);
}

static void grow(hashmap *m) {
    size_t oldcap = m->cap;
    struct slot *old = m->slots;
    m->cap *= 2;
    m->slots = calloc(m->cap, sizeof *m->slots);
    m->used = m->len;
    for (size_t i = 0; i < oldcap; i++) {
        if (old[i].state != FULL) continue;
        size_t j = hash(old[i].key) & (oldcap - 1);
        while (m->slots[j].state == FULL) j = (j + 1) & (m->cap - 1);
        m->slots[j] = old[i];
    }
    free(old);
}

void hm_put(hashmap *m, const char *key, long value) {
    if ((m->used + 1) * 10 > m->cap * 7) grow(m);
    size_t j = hash(key) & (m->cap - 1);
    while (m->slots[j].state != EMPTY) {
        if (m->slots[j].state == TOMB) break;
        if (!strcmp(m->slots[j].key, key)) { m->slots[j].value = value; return; }
        j = (j + 1) & (m->cap - 1);
    }
    if (m->slots[j].state == EMPTY) m->used++;
    m->slots[j].key = strdup(key);
    m->slots[j].value = value;
    m->slots[j].state = FULL;
    m->len++;
}

static long find(const hashmap *m, const char *key) {
    size_t j = hash(key) & (m->cap - 1);
    while (m->slots[j].state != EMPTY) {
        if (m->slots[j].state == FULL && !strcmp(m->slots[j].key, key)) return (long)j;
        j = (j + 1) & (m->cap - 1);
    }
    return -1;
}

int hm_get(const hashmap *m, const char *key, long *out) {
    long j = find(m, key);
    if (j < 0) return 0;
    *out = m->slots[j].value;
    return 1;
}

int hm_del(hashmap *m, const char *key) {
    long j = find(m, key);
    if (j < 0) return 0;
    free(m->slots[j].key);
    m->slots[j].key = NULL;
    m->slots[j].state = EMPTY;
    m->len--;
    return 1;
}

size_t hm_len(const hashmap *m) { return m->len; }
