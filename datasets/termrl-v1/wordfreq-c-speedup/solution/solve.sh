#!/bin/bash
# Same scanner, but an open-addressing hash table instead of a linear search of a linked list, buffered
# reads, and qsort with the first-appearance index as the tie-break instead of a bubble sort.
set -euo pipefail
cat > /app/wf/wordfreq.c <<'C'
/* wordfreq, usage: wordfreq [-n TOP] [-m MINLEN] [FILE...] -- same tokens, counts and order; an open-addressing hash
 * table keeps entries in first-appearance order, and qsort breaks count ties by that order. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXW 64

struct entry {
    char word[MAXW];
    long count;
    long first;
};

static struct entry *ents = NULL;
static long nents = 0, cap = 0;
static long *slots = NULL;
static unsigned long nslots = 0;
static long total = 0;

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        perror("wordfreq");
        exit(2);
    }
    return p;
}

static unsigned long hash(const char *s, size_t len)
{
    unsigned long h = 1469598103934665603UL;
    size_t i;
    for (i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211UL;
    }
    return h;
}

static void grow(void)
{
    unsigned long ns = nslots ? nslots * 2 : 1024, i;
    long k;
    free(slots);
    slots = xrealloc(NULL, ns * sizeof *slots);
    for (i = 0; i < ns; i++)
        slots[i] = -1;
    nslots = ns;
    for (k = 0; k < nents; k++) {
        unsigned long j = hash(ents[k].word, strlen(ents[k].word)) & (ns - 1);
        while (slots[j] >= 0)
            j = (j + 1) & (ns - 1);
        slots[j] = k;
    }
}

static void add_word(const char *w, size_t len)
{
    unsigned long j;
    if ((unsigned long)(nents + 1) * 2 > nslots)
        grow();
    j = hash(w, len) & (nslots - 1);
    while (slots[j] >= 0) {
        struct entry *e = &ents[slots[j]];
        if (memcmp(e->word, w, len + 1) == 0) {
            e->count++;
            total++;
            return;
        }
        j = (j + 1) & (nslots - 1);
    }
    if (nents == cap) {
        cap = cap ? cap * 2 : 1024;
        ents = xrealloc(ents, cap * sizeof *ents);
    }
    memcpy(ents[nents].word, w, len + 1);
    ents[nents].count = 1;
    ents[nents].first = nents;
    slots[j] = nents++;
    total++;
}

static void finish(char *buf, size_t len, size_t minlen)
{
    size_t i;
    buf[len] = '\0';
    if (len < minlen)
        return;
    for (i = 0; i < len; i++)
        if (buf[i] != '\'')
            break;
    if (i == len)
        return;
    add_word(buf, len);
}

static unsigned char cls[256];

static void scan(FILE *f, size_t minlen)
{
    static unsigned char in[1 << 16];
    char buf[MAXW];
    size_t len = 0, n, k;
    int inword = 0;
    while ((n = fread(in, 1, sizeof in, f)) > 0) {
        for (k = 0; k < n; k++) {
            int c = in[k];
            if (cls[c]) {
                if (len < MAXW - 1)
                    buf[len++] = (char)(c < 128 ? tolower(c) : c);
                inword = 1;
            } else if (inword) {
                finish(buf, len, minlen);
                len = 0;
                inword = 0;
            }
        }
    }
    if (inword)
        finish(buf, len, minlen);
}

static int cmp(const void *a, const void *b)
{
    const struct entry *x = *(struct entry *const *)a, *y = *(struct entry *const *)b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return x->first < y->first ? -1 : (x->first > y->first);
}

int main(int argc, char **argv)
{
    long top = 20, k, shown;
    size_t minlen = 1;
    int i, nfiles = 0, c;
    struct entry **v;
    for (c = 0; c < 256; c++)
        cls[c] = (c < 128 && isalnum(c)) || c == '\'' || c >= 128;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 || strcmp(argv[i], "-m") == 0) {
            char *end;
            long val;
            if (i + 1 >= argc) {
                fprintf(stderr, "wordfreq: %s needs a value\n", argv[i]);
                return 2;
            }
            val = strtol(argv[i + 1], &end, 10);
            if (*argv[i + 1] == '\0' || *end != '\0' || val < 0) {
                fprintf(stderr, "wordfreq: bad value for %s: %s\n", argv[i], argv[i + 1]);
                return 2;
            }
            if (argv[i][1] == 'n')
                top = val;
            else
                minlen = (size_t)val;
            i++;
        } else {
            nfiles++;
        }
    }
    if (nfiles == 0) {
        scan(stdin, minlen);
    } else {
        for (i = 1; i < argc; i++) {
            FILE *f;
            if (strcmp(argv[i], "-n") == 0 || strcmp(argv[i], "-m") == 0) {
                i++;
                continue;
            }
            f = fopen(argv[i], "rb");
            if (!f) {
                fprintf(stderr, "wordfreq: cannot read %s\n", argv[i]);
                return 2;
            }
            scan(f, minlen);
            fclose(f);
        }
    }
    v = xrealloc(NULL, (nents ? nents : 1) * sizeof *v);
    for (k = 0; k < nents; k++)
        v[k] = &ents[k];
    qsort(v, nents, sizeof *v, cmp);
    printf("total %ld distinct %ld\n", total, nents);
    shown = (top == 0 || top > nents) ? nents : top;
    for (k = 0; k < shown; k++)
        printf("%ld %s\n", v[k]->count, v[k]->word);
    return 0;
}
C
make -C /app/wf clean
make -C /app/wf
