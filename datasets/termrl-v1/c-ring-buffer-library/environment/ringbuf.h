#ifndef RINGBUF_H
#define RINGBUF_H
#include <stddef.h>

/* A fixed-capacity FIFO of bytes. */
typedef struct ringbuf ringbuf;

/* Creates a buffer that can hold exactly `capacity` bytes (capacity >= 1).
 * Returns NULL if capacity is 0 or allocation fails. */
ringbuf *rb_new(size_t capacity);
void rb_free(ringbuf *rb);

size_t rb_size(const ringbuf *rb);     /* bytes currently stored */
size_t rb_space(const ringbuf *rb);    /* capacity - size */

/* Appends up to len bytes from src (as many as fit); returns how many were written. */
size_t rb_write(ringbuf *rb, const void *src, size_t len);

/* Removes up to len bytes from the front into dst; returns how many were read.
 * dst may be NULL, in which case the bytes are just discarded. */
size_t rb_read(ringbuf *rb, void *dst, size_t len);

/* Copies up to len bytes starting `offset` bytes after the front into dst without
 * removing anything; returns how many were copied (0 if offset >= size). */
size_t rb_peek(const ringbuf *rb, size_t offset, void *dst, size_t len);

/* Index (from the front) of the first occurrence of byte c, or -1. */
long rb_find(const ringbuf *rb, unsigned char c);

/* If the buffer holds a '\n', removes the line including the '\n' and copies it
 * without the '\n' into dst as a NUL-terminated string. If the line (without '\n')
 * is longer than maxlen-1 bytes it is truncated in dst but still removed entirely.
 * Returns the full line length without '\n', or -1 if no complete line is stored
 * (then nothing is removed). maxlen >= 1. */
long rb_readline(ringbuf *rb, char *dst, size_t maxlen);
#endif
