#!/bin/bash
# Compaction renames the new file into place but keeps appending to the old (now unlinked) file.
set -euo pipefail
cat > /app/kvstore.c <<'C'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kvstore.h"

struct entry { void *key; size_t klen; void *val; size_t vlen; struct entry *next; };
struct kvstore { char *path; FILE *f; struct entry *head; size_t count; };

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

static void put_u32(unsigned char *b, uint32_t v) { b[0] = v; b[1] = v >> 8; b[2] = v >> 16; b[3] = v >> 24; }
static uint32_t get_u32(const unsigned char *b) { return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24; }

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
    e->val = malloc(vlen ? vlen : 1); if (vlen) memcpy(e->val, val, vlen); e->vlen = vlen;
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
    unsigned char h[13];
    put_u32(h + 4, (uint32_t)klen);
    put_u32(h + 8, (uint32_t)vlen);
    h[12] = (unsigned char)type;
    uint32_t crc = crc_update(0, h + 4, 9);
    crc = crc_update(crc, key, klen);
    if (vlen) crc = crc_update(crc, val, vlen);
    put_u32(h, crc);
    if (fwrite(h, 1, 13, f) != 13) return -1;
    if (klen && fwrite(key, 1, klen, f) != klen) return -1;
    if (vlen && fwrite(val, 1, vlen, f) != vlen) return -1;
    return fflush(f) == 0 ? 0 : -1;
}

static long replay(kvstore *kv) {
    unsigned char h[13];
    long good = 0;
    for (;;) {
        if (fread(h, 1, 13, kv->f) != 13) break;
        uint32_t klen = get_u32(h + 4), vlen = get_u32(h + 8);
        if (klen < 1 || klen > 1024 || vlen > (1u << 20) || (h[12] != 1 && h[12] != 2)) break;
        unsigned char *key = malloc(klen), *val = malloc(vlen + 1);
        if (fread(key, 1, klen, kv->f) != klen || fread(val, 1, vlen, kv->f) != vlen) {
            free(key); free(val); break;
        }
        uint32_t crc = crc_update(crc_update(crc_update(0, h + 4, 9), key, klen), val, vlen);
        if (crc != get_u32(h)) { free(key); free(val); break; }
        if (h[12] == 1) set_mem(kv, key, klen, val, vlen);
        else del_mem(kv, key, klen);
        free(key); free(val);
        good = ftell(kv->f);
    }
    return good;
}

kvstore *kv_open(const char *path) {
    crc_init();
    FILE *f = fopen(path, "r+b");
    if (!f) f = fopen(path, "w+b");
    if (!f) return NULL;
    kvstore *kv = calloc(1, sizeof *kv);
    kv->path = strdup(path);
    kv->f = f;
    long good = replay(kv);
    fflush(kv->f);
    if (ftruncate(fileno(kv->f), good) != 0) { kv_close(kv); return NULL; }
    fseek(kv->f, good, SEEK_SET);
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
    *val = malloc(e->vlen ? e->vlen : 1);
    memcpy(*val, e->val, e->vlen);
    *vlen = e->vlen;
    return 1;
}

int kv_del(kvstore *kv, const void *key, size_t klen) {
    if (!find(kv, key, klen, NULL)) return 0;
    if (write_rec(kv->f, 2, key, klen, NULL, 0) != 0) return -1;
    del_mem(kv, key, klen);
    return 1;
}

int kv_compact(kvstore *kv) {
    size_t n = strlen(kv->path) + 5;
    char *tmp = malloc(n);
    snprintf(tmp, n, "%s.tmp", kv->path);
    FILE *t = fopen(tmp, "w+b");
    if (!t) { free(tmp); return -1; }
    for (struct entry *e = kv->head; e; e = e->next)
        if (write_rec(t, 1, e->key, e->klen, e->val, e->vlen) != 0) { fclose(t); remove(tmp); free(tmp); return -1; }
    if (fsync(fileno(t)) != 0 || rename(tmp, kv->path) != 0) { fclose(t); remove(tmp); free(tmp); return -1; }
    free(tmp);
    fclose(t);
    return 0;
}

size_t kv_count(const kvstore *kv) { return kv->count; }

void kv_close(kvstore *kv) {
    if (!kv) return;
    fclose(kv->f);
    while (kv->head) del_mem(kv, kv->head->key, kv->head->klen);
    free(kv->path);
    free(kv);
}
C
cd /app && make -B kvcli
