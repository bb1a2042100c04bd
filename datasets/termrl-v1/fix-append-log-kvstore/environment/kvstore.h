#ifndef KVSTORE_H
#define KVSTORE_H
#include <stddef.h>

/* An append-only key-value store in a single file.
 *
 * File format: a sequence of records, each
 *     crc32   u32 little-endian  (CRC-32/IEEE, as zlib's crc32(), over ALL bytes that follow
 *                                 in this record: klen, vlen, type, key, value)
 *     klen    u32 little-endian
 *     vlen    u32 little-endian  (0 for deletions)
 *     type    u8                 (1 = put, 2 = delete)
 *     key     klen bytes
 *     value   vlen bytes
 * i.e. a 13-byte header with no padding. Keys are 1..1024 bytes, values 0..1MiB (binary-safe).
 *
 * kv_open: opens (creating if needed) and replays the file. Replay stops at the first record
 *   that is incomplete or whose CRC does not match (a torn write); the file is truncated to the
 *   end of the last good record so later appends follow valid data.
 * kv_put / kv_del: append one record and update the in-memory state. kv_del of a missing key
 *   returns 0 and writes nothing; otherwise it returns 1. Each successful call is flushed to the
 *   OS (fflush) before returning.
 * kv_get: returns 1 and a malloc'd copy of the value (*val, *len) if present, else 0.
 * kv_compact: rewrites the file so it contains exactly one put record per live key (in any
 *   order), atomically (write a temporary file in the same directory, then rename over the
 *   original). The store stays usable afterwards.
 * kv_count: number of live keys.
 */
typedef struct kvstore kvstore;

kvstore *kv_open(const char *path);
int kv_put(kvstore *kv, const void *key, size_t klen, const void *val, size_t vlen);
int kv_get(kvstore *kv, const void *key, size_t klen, void **val, size_t *vlen);
int kv_del(kvstore *kv, const void *key, size_t klen);
int kv_compact(kvstore *kv);
size_t kv_count(const kvstore *kv);
void kv_close(kvstore *kv);
#endif
