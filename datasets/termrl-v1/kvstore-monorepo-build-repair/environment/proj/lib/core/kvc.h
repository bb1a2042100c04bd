/* internal helpers of libkv (not installed) */
#ifndef KVC_H
#define KVC_H
#include <stddef.h>
#include <stdint.h>
uint32_t kvc_hash(const char *s);
void *kvc_grow(void *buf, size_t *cap, size_t need, size_t elem);
#endif
