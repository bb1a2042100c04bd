#ifndef POOL_H
#define POOL_H
#include <stddef.h>

/* A first-fit allocator with boundary tags over a caller-supplied arena.
 *
 * Block layout: [header size_t][payload ...][footer size_t]. Header and footer hold the
 * block's total size (a multiple of 8, including header and footer) with bit 0 set when
 * the block is in use. The smallest block is 32 bytes. Payload pointers are 8-byte aligned.
 *
 * pool_init(buf, size): buf is 8-byte aligned; size is a multiple of 8 and >= 32. The whole
 *   arena becomes one free block.
 * pool_alloc(n): n == 0 -> NULL. Otherwise the first (lowest-address) free block that can hold
 *   n bytes (rounded UP to a multiple of 8) is used; if the leftover would be at least 32 bytes
 *   the block is split and the leftover stays free, otherwise the whole block is handed out.
 *   NULL if nothing fits.
 * pool_free(p): p == NULL is a no-op. The block becomes free and is immediately merged with a
 *   free neighbour on either side, so two free blocks are never adjacent.
 * pool_realloc(p, n): p == NULL -> pool_alloc(n); n == 0 -> pool_free(p), returns NULL. If the
 *   block's payload already holds n bytes, returns p unchanged. Otherwise allocates a new block,
 *   copies the old payload, frees the old block and returns the new pointer; if no block fits it
 *   returns NULL and the old block is left untouched and still valid.
 * pool_capacity(p): payload bytes of the block (total size - 16).
 * pool_stats(): number of blocks, total payload bytes of free blocks, largest free payload.
 */
void pool_init(void *buf, size_t size);
void *pool_alloc(size_t n);
void pool_free(void *p);
void *pool_realloc(void *p, size_t n);
size_t pool_capacity(const void *p);
void pool_stats(size_t *nblocks, size_t *free_bytes, size_t *largest_free);
#endif
