#!/bin/bash
# Only tries matches that start at the beginning of the line (match, not search, semantics).
set -euo pipefail
cat > /app/mgrep.c <<'C'
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHAR, ANY, CLASS, SPLIT, EPS, BOL, EOL, MATCH };
typedef struct { int type, c, out, out1; unsigned char set[32]; } State;
typedef struct { int start; int *outs[64]; int nouts; } Frag; /* dangling pointers */

static State *st; static int nst, capst;
static const char *p; static int err;

static int newst(int type) {
    if (nst == capst) { capst = capst ? capst * 2 : 64; st = realloc(st, capst * sizeof *st); }
    memset(&st[nst], 0, sizeof st[nst]);
    st[nst].type = type; st[nst].out = st[nst].out1 = -1;
    return nst++;
}

/* dangling out lists are stored as linked list through a side array to avoid fixed limits */
typedef struct { int start; int list; } F;
static int *lnk_state, *lnk_which, *lnk_next; static int nlnk, caplnk;
static int addlnk(int s, int which, int next) {
    if (nlnk == caplnk) { caplnk = caplnk ? caplnk * 2 : 64;
        lnk_state = realloc(lnk_state, caplnk * sizeof(int)); lnk_which = realloc(lnk_which, caplnk * sizeof(int));
        lnk_next = realloc(lnk_next, caplnk * sizeof(int)); }
    lnk_state[nlnk] = s; lnk_which[nlnk] = which; lnk_next[nlnk] = next; return nlnk++;
}
static void patch(int l, int target) {
    for (; l >= 0; l = lnk_next[l]) { if (lnk_which[l]) st[lnk_state[l]].out1 = target; else st[lnk_state[l]].out = target; }
}
static int append(int a, int b) {
    if (a < 0) return b;
    int l = a; while (lnk_next[l] >= 0) l = lnk_next[l];
    lnk_next[l] = b; return a;
}
static F single(int s) { F f = { s, addlnk(s, 0, -1) }; return f; }

static F parse_alt(void);

static int is_quant(char c) { return c == '*' || c == '+' || c == '?'; }

static F parse_class(void) {
    int s = newst(CLASS); unsigned char set[32]; memset(set, 0, 32);
    int neg = 0, first = 1, n = 0;
    if (*p == '^') { neg = 1; p++; }
    for (;;) {
        if (!*p) { err = 1; break; }
        if (*p == ']' ) { break; }
        int c;
        if (*p == '\\') { p++; if (!*p) { err = 1; break; } c = (unsigned char)*p++; }
        else if (*p == '-' && !first && p[1] != ']') { err = 1; break; }
        else c = (unsigned char)*p++;
        int hi = c;
        if (*p == '-' && p[1] && p[1] != ']') {
            p++;
            if (*p == '\\') { p++; if (!*p) { err = 1; break; } }
            hi = (unsigned char)*p++;
            if (hi < c) { err = 1; break; }
        }
        for (int x = c; x <= hi; x++) set[x >> 3] |= 1 << (x & 7);
        first = 0; n++;
    }
    if (!err && n == 0) err = 1;
    if (!err) p++; /* ] */
    if (neg) for (int i = 0; i < 32; i++) set[i] = ~set[i];
    memcpy(st[s].set, set, 32);
    return single(s);
}

static F parse_atom(int *ok) {
    F f = { -1, -1 }; *ok = 1;
    char c = *p;
    if (c == '(') {
        p++;
        f = parse_alt();
        if (*p != ')') { err = 1; return f; }
        p++;
        return f;
    }
    if (c == '[') { p++; return parse_class(); }
    if (c == '.') { p++; return single(newst(ANY)); }
    if (c == '^') { p++; *ok = 2; return single(newst(BOL)); }
    if (c == '$') { p++; *ok = 2; return single(newst(EOL)); }
    if (c == '\\') {
        p++;
        if (!*p || !strchr(".[]()*+?|^$\\", *p)) { err = 1; return f; }
        int s = newst(CHAR); st[s].c = (unsigned char)*p++; return single(s);
    }
    if (is_quant(c)) { err = 1; return f; }
    int s = newst(CHAR); st[s].c = (unsigned char)*p++; return single(s);
}

static F parse_concat(void) {
    F acc = { -1, -1 }; int have = 0;
    while (*p && *p != '|' && *p != ')' && !err) {
        int kind; F a = parse_atom(&kind);
        if (err) break;
        if (is_quant(*p)) {
            if (kind == 2) { err = 1; break; }
            char q = *p++;
            if (is_quant(*p)) { err = 1; break; }
            int s = newst(SPLIT);
            if (q == '*') { st[s].out = a.start; patch(a.list, s); a.start = s; a.list = addlnk(s, 1, -1); }
            else if (q == '+') { st[s].out = a.start; patch(a.list, s); a.list = addlnk(s, 1, -1); }
            else { st[s].out = a.start; a.start = s; a.list = append(a.list, addlnk(s, 1, -1)); }
        }
        if (!have) { acc = a; have = 1; }
        else { patch(acc.list, a.start); acc.list = a.list; }
    }
    if (!have) { int e = newst(EPS); acc = single(e); }
    return acc;
}

static F parse_alt(void) {
    F a = parse_concat();
    while (*p == '|' && !err) {
        p++;
        F b = parse_concat();
        int s = newst(SPLIT); st[s].out = a.start; st[s].out1 = b.start;
        a.start = s; a.list = append(a.list, b.list);
    }
    return a;
}

static int *gen, genid;
static void addstate(int *list, int *n, int s, size_t pos, size_t len) {
    if (s < 0 || gen[s] == genid) return;
    gen[s] = genid;
    switch (st[s].type) {
    case SPLIT: addstate(list, n, st[s].out, pos, len); addstate(list, n, st[s].out1, pos, len); return;
    case EPS: addstate(list, n, st[s].out, pos, len); return;
    case BOL: if (pos == 0) addstate(list, n, st[s].out, pos, len); return;
    case EOL: if (pos == len) addstate(list, n, st[s].out, pos, len); return;
    default: list[(*n)++] = s;
    }
}

static int start_state;
static int search(const unsigned char *s, size_t len) {
    static int *cl, *nl; static int cap;
    if (cap < nst) { cap = nst; cl = realloc(cl, cap * sizeof(int)); nl = realloc(nl, cap * sizeof(int)); }
    int nc = 0, nn;
    genid++;
    addstate(cl, &nc, start_state, 0, len);
    for (size_t i = 0;; i++) {
        for (int k = 0; k < nc; k++) if (st[cl[k]].type == MATCH) return 1;
        if (i == len) return 0;
        genid++; nn = 0;
        int c = s[i];
        for (int k = 0; k < nc; k++) {
            State *x = &st[cl[k]];
            int m = (x->type == CHAR && x->c == c) || x->type == ANY ||
                    (x->type == CLASS && (x->set[c >> 3] >> (c & 7) & 1));
            if (m) addstate(nl, &nn, x->out, i + 1, len);
        }
        int *t = cl; cl = nl; nl = t; nc = nn;
    }
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: mgrep PATTERN\n"); return 2; }
    p = argv[1];
    F f = parse_alt();
    if (!err && *p) err = 1; /* stray ')' */
    if (err) { fprintf(stderr, "mgrep: invalid pattern\n"); return 2; }
    int m = newst(MATCH); patch(f.list, m); start_state = f.start;
    gen = calloc(nst, sizeof(int));
    char *line = NULL; size_t cap = 0; ssize_t n; int any = 0;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        if (n && line[n - 1] == '\n') line[--n] = 0;
        if (search((unsigned char *)line, (size_t)n)) { fwrite(line, 1, n, stdout); putchar('\n'); any = 1; }
    }
    free(line);
    return any ? 0 : 1;
}
C
gcc -O2 -std=c11 -o /app/mgrep /app/mgrep.c
