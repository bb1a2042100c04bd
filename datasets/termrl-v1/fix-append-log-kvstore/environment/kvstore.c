#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kvstore.h"

struct entry { void *key; size_t klen; void *val; size_t vlen; struct entry *next; };
struct kvstore { char *path; FILE *f; struct entry *head; size_t count; };

struct rec_hdr { uint32_t crc; uint32_t klen; uint32_t vlen; uint8_t type; };

static uint32_t crc_table[256];
static void crc_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}
static uint32_t crc_update(uint32_t crc, const void *data, size_t n) {
    const unsigned char *p = data;
    crc = ~crc;
    while (n--) crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static struct entry *find(kvstore *kv, const void *key, size_t klen, struct entry ***link) {
    struct entry **pp = &kv->head;
    for (; *pp; pp = &(*pp)->next)
        if ((*pp)->klen == klen && !memcmp((*pp)->key, key, klen)) { if (link) *link = pp; return *pp; }
    return NULL;
}

static void set_mem(kvstore *kv, const void *key, size_t klen, const void *val, size_t vlen) {
    struct entry *e = find(kv, key, klen, NULL);
    if (!e) {
        e = calloc(1, sizeof *e);
        e->key = malloc(klen); memcpy(e->key, key, klen); e->klen = klen;
        e->next = kv->head; kv->head = e; kv->count++;
    } else {
        free(e->val);
    }
    e->val = malloc(vlen ? vlen : 1); memcpy(e->val, val, vlen); e->vlen = vlen;
}

static void del_mem(kvstore *kv, const void *key, size_t klen) {
    struct entry **link;
    struct entry *e = find(kv, key, klen, &link);
    if (!e) return;
    *link = e->next;
    free(e->key); free(e->val); free(e);
    kv->count--;
}

static int write_rec(FILE *f, int type, const void *key, size_t klen, const void *val, size_t vlen) {
    struct rec_hdr h = { 0, (uint32_t)klen, (uint32_t)vlen, (uint8_t)type };
    h.crc = crc_update(0, key, klen);
    h.crc = crc_update(h.crc, val, vlen);
    if (fwrite(&h, sizeof h, 1, f) != 1) return -1;
    if (klen && fwrite(key, 1, klen, f) != klen) return -1;
    if (vlen && fwrite(val, 1, vlen, f) != vlen) return -1;
    return fflush(f) == 0 ? 0 : -1;
}

static void replay(kvstore *kv) {
    struct rec_hdr h;
    for (;;) {
        if (fread(&h, sizeof h, 1, kv->f) != 1) break;
        if (h.klen > 1024 || h.vlen > (1u << 20)) break;
        void *key = malloc(h.klen + 1), *val = malloc(h.vlen + 1);
        if (fread(key, 1, h.klen, kv->f) != h.klen || fread(val, 1, h.vlen, kv->f) != h.vlen) {
            free(key); free(val); break;
        }
        uint32_t crc = crc_update(crc_update(0, key, h.klen), val, h.vlen);
        if (crc != h.crc) { free(key); free(val); break; }
        if (h.type == 1) set_mem(kv, key, h.klen, val, h.vlen);
        else del_mem(kv, key, h.klen);
        free(key); free(val);
    }
    fseek(kv->f, 0, SEEK_END);
}

kvstore *kv_open(const char *path) {
    crc_init();
    kvstore *kv = calloc(1, sizeof *kv);
    kv->path = strdup(path);
    kv->f = fopen(path, "a+b");
    if (!kv->f) { free(kv->path); free(kv); return NULL; }
    rewind(kv->f);
    replay(kv);
    return kv;
}

int kv_put(kvstore *kv, const void *key, size_t klen, const void *val, size_t vlen) {
    if (klen < 1 || klen > 1024 || vlen > (1u << 20)) return -1;
    if (write_rec(kv->f, 1, key, klen, val, vlen) != 0) return -1;
    set_mem(kv, key, klen, val, vlen);
    return 0;
}

int kv_get(kvstore *kv, const void *key, size_t klen, void **val, size_t *vlen) {
    struct entry *e = find(kv, key, klen, NULL);
    if (!e) return 0;
    *val = e->val;
    *vlen = e->vlen;
    return 1;
}

int kv_del(kvstore *kv, const void *key, size_t klen) {
    if (write_rec(kv->f, 2, key, klen, NULL, 0) != 0) return -1;
    int present = find(kv, key, klen, NULL) != NULL;
    del_mem(kv, key, klen);
    return present;
}

int kv_compact(kvstore *kv) {
    size_t n = strlen(kv->path) + 5;
    char *tmp = malloc(n);
    snprintf(tmp, n, "%s.tmp", kv->path);
    FILE *t = fopen(tmp, "wb");
    if (!t) { free(tmp); return -1; }
    for (struct entry *e = kv->head; e; e = e->next)
        if (write_rec(t, 1, e->key, e->klen, e->val, e->vlen) != 0) { fclose(t); free(tmp); return -1; }
    fclose(t);
    int r = rename(tmp, kv->path);
    free(tmp);
    return r;
}

size_t kv_count(const kvstore *kv) { return kv->count; }

void kv_close(kvstore *kv) {
    if (!kv) return;
    fclose(kv->f);
    while (kv->head) del_mem(kv, kv->head->key, kv->head->klen);
    free(kv->path);
    free(kv);
}
