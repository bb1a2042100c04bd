#!/bin/bash
# Classic 'keep one slot free' ring: only holds capacity-1 bytes.
set -euo pipefail
cat > /app/ringbuf.c <<'C'
#include <stdlib.h>
#include <string.h>
#include "ringbuf.h"

struct ringbuf { unsigned char *buf; size_t cap, head, len; };

ringbuf *rb_new(size_t capacity) {
    if (capacity == 0) return NULL;
    ringbuf *rb = malloc(sizeof *rb);
    if (!rb) return NULL;
    rb->buf = malloc(capacity);
    if (!rb->buf) { free(rb); return NULL; }
    rb->cap = capacity; rb->head = 0; rb->len = 0;
    return rb;
}

void rb_free(ringbuf *rb) { if (rb) { free(rb->buf); free(rb); } }
size_t rb_size(const ringbuf *rb) { return rb->len; }
size_t rb_space(const ringbuf *rb) { return rb->cap - 1 - rb->len; }

size_t rb_write(ringbuf *rb, const void *src, size_t len) {
    if (len > rb->cap - 1 - rb->len) len = rb->cap - 1 - rb->len;
    size_t tail = (rb->head + rb->len) % rb->cap;
    size_t first = rb->cap - tail < len ? rb->cap - tail : len;
    memcpy(rb->buf + tail, src, first);
    memcpy(rb->buf, (const unsigned char *)src + first, len - first);
    rb->len += len;
    return len;
}

size_t rb_peek(const ringbuf *rb, size_t offset, void *dst, size_t len) {
    if (offset >= rb->len) return 0;
    if (len > rb->len - offset) len = rb->len - offset;
    size_t start = (rb->head + offset) % rb->cap;
    size_t first = rb->cap - start < len ? rb->cap - start : len;
    memcpy(dst, rb->buf + start, first);
    memcpy((unsigned char *)dst + first, rb->buf, len - first);
    return len;
}

size_t rb_read(ringbuf *rb, void *dst, size_t len) {
    if (len > rb->len) len = rb->len;
    if (dst) rb_peek(rb, 0, dst, len);
    rb->head = (rb->head + len) % rb->cap;
    rb->len -= len;
    return len;
}

long rb_find(const ringbuf *rb, unsigned char c) {
    for (size_t i = 0; i < rb->len; i++)
        if (rb->buf[(rb->head + i) % rb->cap] == c) return (long)i;
    return -1;
}

long rb_readline(ringbuf *rb, char *dst, size_t maxlen) {
    long nl = rb_find(rb, '\n');
    if (nl < 0) return -1;
    size_t n = (size_t)nl < maxlen - 1 ? (size_t)nl : maxlen - 1;
    rb_peek(rb, 0, dst, n);
    dst[n] = '\0';
    rb_read(rb, NULL, (size_t)nl + 1);
    return nl;
}
C
