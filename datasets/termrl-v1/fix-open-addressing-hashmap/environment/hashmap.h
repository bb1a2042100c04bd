#ifndef HASHMAP_H
#define HASHMAP_H
#include <stddef.h>

/* String -> long map using open addressing with linear probing.
 * Keys are copied. Capacity is always a power of two; the table grows (doubling)
 * whenever an insertion would make (live entries + tombstones) exceed 70% of capacity. */
typedef struct hashmap hashmap;

hashmap *hm_new(void);
void hm_free(hashmap *m);
/* Inserts or overwrites. */
void hm_put(hashmap *m, const char *key, long value);
/* Returns 1 and stores the value in *out if present, else 0. */
int hm_get(const hashmap *m, const char *key, long *out);
/* Removes key; returns 1 if it was present, else 0. */
int hm_del(hashmap *m, const char *key);
/* Number of live keys. */
size_t hm_len(const hashmap *m);
#endif
