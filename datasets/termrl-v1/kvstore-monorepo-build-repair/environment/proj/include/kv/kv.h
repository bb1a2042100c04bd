/* libkv 2.1 - a tiny numeric key/value store.
 *
 * ABI NOTE: libkv is built with KV_LARGE_KEYS defined (see lib/kv/module.mk), which makes
 * kv_entry hold keys of up to 63 bytes.  Every program that includes this header must be
 * compiled with the same setting, or it will read kv_entry arrays with the wrong layout.
 */
#ifndef KV_KV_H
#define KV_KV_H
#include <stddef.h>
#include <stdio.h>

#define KV_VERSION "2.1.0"

#ifdef KV_LARGE_KEYS
#define KV_KEY_MAX 64
#else
#define KV_KEY_MAX 16
#endif

typedef struct kv_entry {
    char key[KV_KEY_MAX];
    double value;
} kv_entry;

typedef struct kv_store kv_store;

kv_store *kv_open(void);
void kv_close(kv_store *s);
/* reads "key = number" lines ('#' comments and blank lines skipped); returns the number of
   entries stored, or -(line number) of the first malformed line */
int kv_load(kv_store *s, FILE *in);
int kv_set(kv_store *s, const char *key, double value);
int kv_get(const kv_store *s, const char *key, double *out);
/* all entries sorted by key; *n receives the count */
const kv_entry *kv_entries(kv_store *s, size_t *n);
double kv_mean(const kv_store *s);
double kv_stddev(const kv_store *s);
const char *kv_version(void);
size_t kv_key_max(void);
#endif
