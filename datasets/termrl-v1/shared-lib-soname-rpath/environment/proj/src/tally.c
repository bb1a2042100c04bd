#include <stdlib.h>
#include <string.h>
#include "tally.h"

struct entry { char *w; int n; struct entry *next; };
struct tally { struct entry *b[256]; int distinct; };

static unsigned hash(const char *s) { unsigned h = 5381; while (*s) h = h * 33 + (unsigned char)*s++; return h & 255; }

tally *tally_new(void) { return calloc(1, sizeof(tally)); }

void tally_add(tally *t, const char *w) {
    unsigned h = hash(w);
    for (struct entry *e = t->b[h]; e; e = e->next)
        if (!strcmp(e->w, w)) { e->n++; return; }
    struct entry *e = malloc(sizeof *e);
    e->w = strdup(w); e->n = 1; e->next = t->b[h]; t->b[h] = e;
    t->distinct++;
}

int tally_get(const tally *t, const char *w) {
    for (struct entry *e = t->b[hash(w)]; e; e = e->next)
        if (!strcmp(e->w, w)) return e->n;
    return 0;
}

int tally_distinct(const tally *t) { return t->distinct; }

void tally_free(tally *t) {
    for (int i = 0; i < 256; i++)
        for (struct entry *e = t->b[i], *n; e; e = n) { n = e->next; free(e->w); free(e); }
    free(t);
}

const char *tally_version(void) { return "1.2.0"; }
