#include <stdlib.h>
#include <string.h>
#include "kv/kv.h"
#include "kvc.h"

struct kv_store {
    kv_entry *ents;
    size_t n, cap;
    int *slots;          /* open addressing: index into ents, -1 empty */
    size_t nslots;
    int sorted;
};

kv_store *kv_open(void)
{
    kv_store *s = calloc(1, sizeof *s);
    s->nslots = 16;
    s->slots = malloc(s->nslots * sizeof(int));
    memset(s->slots, -1, s->nslots * sizeof(int));
    s->sorted = 1;
    return s;
}

void kv_close(kv_store *s)
{
    if (!s)
        return;
    free(s->ents);
    free(s->slots);
    free(s);
}

static long find(const kv_store *s, const char *key)
{
    size_t i = kvc_hash(key) & (s->nslots - 1);
    while (s->slots[i] >= 0) {
        if (strcmp(s->ents[s->slots[i]].key, key) == 0)
            return (long)i;
        i = (i + 1) & (s->nslots - 1);
    }
    return -(long)i - 1;
}

static void rehash(kv_store *s)
{
    free(s->slots);
    s->nslots *= 2;
    s->slots = malloc(s->nslots * sizeof(int));
    memset(s->slots, -1, s->nslots * sizeof(int));
    for (size_t k = 0; k < s->n; k++) {
        long at = find(s, s->ents[k].key);
        s->slots[-at - 1] = (int)k;
    }
}

int kv_set(kv_store *s, const char *key, double value)
{
    if (strlen(key) >= KV_KEY_MAX)
        return -1;
    long at = find(s, key);
    if (at >= 0) {
        s->ents[s->slots[at]].value = value;
        return 0;
    }
    s->ents = kvc_grow(s->ents, &s->cap, s->n + 1, sizeof(kv_entry));
    memset(&s->ents[s->n], 0, sizeof(kv_entry));
    strcpy(s->ents[s->n].key, key);
    s->ents[s->n].value = value;
    s->slots[-at - 1] = (int)s->n;
    s->n++;
    s->sorted = 0;
    if (s->n * 2 > s->nslots)
        rehash(s);
    return 1;
}

int kv_get(const kv_store *s, const char *key, double *out)
{
    long at = find(s, key);
    if (at < 0)
        return 0;
    *out = s->ents[s->slots[at]].value;
    return 1;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(((const kv_entry *)a)->key, ((const kv_entry *)b)->key);
}

const kv_entry *kv_entries(kv_store *s, size_t *n)
{
    if (!s->sorted) {
        qsort(s->ents, s->n, sizeof(kv_entry), cmp);
        s->sorted = 1;
        for (size_t i = 0; i < s->nslots; i++)
            s->slots[i] = -1;
        for (size_t k = 0; k < s->n; k++) {
            long at = find(s, s->ents[k].key);
            s->slots[-at - 1] = (int)k;
        }
    }
    *n = s->n;
    return s->ents;
}

const char *kv_version(void) { return KV_VERSION; }
size_t kv_key_max(void) { return KV_KEY_MAX; }
