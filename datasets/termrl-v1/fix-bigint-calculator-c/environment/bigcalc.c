/*
 * bigcalc - arbitrary-precision integer calculator.
 *
 * Reads lines of the form "A OP B" from standard input and prints one
 * result line per non-blank input line.  See /app/README.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <ctype.h>

#define BASE 1000000000u
#define BASE_DIGITS 9
#define MAX_EXP 100000u

typedef struct {
    int neg;          /* 1 if negative */
    size_t n;         /* number of limbs in use */
    size_t cap;
    uint32_t *d;      /* little-endian limbs, base 10^9 */
} big;

static void big_init(big *b) { b->neg = 0; b->n = 0; b->cap = 0; b->d = NULL; }
static void big_free(big *b) { free(b->d); big_init(b); }

static void big_reserve(big *b, size_t cap)
{
    if (cap <= b->cap) return;
    uint32_t *p = realloc(b->d, cap * sizeof *p);
    if (!p) { fprintf(stderr, "out of memory\n"); exit(3); }
    b->d = p;
    b->cap = cap;
}

static void big_trim(big *b)
{
    while (b->n > 0 && b->d[b->n - 1] == 0) b->n--;
    if (b->n == 0) b->neg = 0;
}

static void big_copy(big *dst, const big *src)
{
    big_reserve(dst, src->n + 1);
    if (src->n) memcpy(dst->d, src->d, src->n * sizeof *src->d);
    dst->n = src->n;
    dst->neg = src->neg;
}

static void big_set_u32(big *b, uint32_t v)
{
    big_reserve(b, 2);
    b->neg = 0;
    b->n = 0;
    if (v >= BASE) { b->d[0] = v % BASE; b->d[1] = v / BASE; b->n = 2; }
    else if (v) { b->d[0] = v; b->n = 1; }
}

/* parse -?[0-9]+ ; returns 0 on success */
static int big_parse(big *b, const char *s)
{
    int neg = 0;
    if (*s == '-') { neg = 1; s++; }
    size_t len = strlen(s);
    if (len == 0) return -1;
    for (size_t i = 0; i < len; i++)
        if (!isdigit((unsigned char)s[i])) return -1;
    while (*s == '0') { s++; len--; }     /* drop leading zeros */
    size_t limbs = (len + BASE_DIGITS - 1) / BASE_DIGITS;
    big_reserve(b, limbs + 1);
    b->n = 0;
    size_t end = len;
    while (end > 0) {
        size_t start = end >= BASE_DIGITS ? end - BASE_DIGITS : 0;
        uint32_t v = 0;
        for (size_t i = start; i < end; i++) v = v * 10 + (uint32_t)(s[i] - '0');
        b->d[b->n++] = v;
        end = start;
    }
    b->neg = neg;
    return 0;
}

static int cmp_abs(const big *a, const big *b)
{
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (size_t i = a->n; i-- > 0;)
        if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

/* r = |a| + |b| ; r may alias a or b */
static void add_abs(big *r, const big *a, const big *b)
{
    if (a->n < b->n) { const big *t = a; a = b; b = t; }
    size_t an = a->n, bn = b->n;
    big_reserve(r, an + 1);
    uint32_t carry = 0;
    for (size_t i = 0; i < an; i++) {
        uint32_t cur = a->d[i] + carry + (i < bn ? b->d[i] : 0);
        if (cur > BASE) { cur -= BASE; carry = 1; } else carry = 0;
        r->d[i] = cur;
    }
    r->n = an;
    if (carry) r->d[r->n++] = carry;
}

/* r = |a| - |b|, requires |a| >= |b| ; r may alias a or b */
static void sub_abs(big *r, const big *a, const big *b)
{
    size_t an = a->n, bn = b->n;
    big_reserve(r, an + 1);
    int64_t borrow = 0;
    for (size_t i = 0; i < an; i++) {
        int64_t cur = (int64_t)a->d[i] - borrow - (i < bn ? (int64_t)b->d[i] : 0);
        if (cur < 0) { cur += BASE; borrow = 1; } else borrow = 0;
        r->d[i] = (uint32_t)cur;
    }
    r->n = an;
}

/* r = a + (negb ? -b : b) */
static void add_signed(big *r, const big *a, const big *b, int negb)
{
    int bneg = b->n ? (b->neg ^ negb) : 0;
    if (a->neg == bneg) {
        int s = a->neg;
        add_abs(r, a, b);
        r->neg = s;
    } else if (cmp_abs(a, b) >= 0) {
        int s = a->neg;
        sub_abs(r, a, b);
        r->neg = r->n ? s : 0;
    } else {
        int s = bneg;
        sub_abs(r, b, a);
        r->neg = r->n ? s : 0;
    }
}

/* r = a * b ; r must not alias a or b */
static void mul(big *r, const big *a, const big *b)
{
    size_t n = a->n + b->n;
    /* accumulate the column sums first and normalise once at the end:
       one division per output limb instead of one per limb product */
    uint64_t *acc = calloc(n + 1, sizeof *acc);
    if (!acc) { fprintf(stderr, "out of memory\n"); exit(3); }
    for (size_t i = 0; i < a->n; i++)
        for (size_t j = 0; j < b->n; j++)
            acc[i + j] += (uint64_t)a->d[i] * b->d[j];
    big_reserve(r, n + 1);
    uint64_t carry = 0;
    for (size_t k = 0; k <= n; k++) {
        uint64_t cur = acc[k] + carry;
        r->d[k] = (uint32_t)(cur % BASE);
        carry = cur / BASE;
    }
    free(acc);
    r->n = n + 1;
    big_trim(r);
    r->neg = a->neg ^ b->neg;
}

/* r = |a| * m for a small m < BASE ; r must not alias a */
static void mul_small(big *r, const big *a, uint32_t m)
{
    big_reserve(r, a->n + 1);
    uint64_t carry = 0;
    for (size_t i = 0; i < a->n; i++) {
        uint64_t cur = (uint64_t)a->d[i] * m + carry;
        r->d[i] = (uint32_t)(cur % BASE);
        carry = cur / BASE;
    }
    r->n = a->n;
    if (carry) r->d[r->n++] = (uint32_t)carry;
    r->neg = 0;
    big_trim(r);
}

/* truncating division of magnitudes: q = |a| / |b|, rem = |a| % |b|; b != 0 */
static void divmod_abs(big *q, big *rem, const big *a, const big *b)
{
    big t; big_init(&t);
    big_reserve(q, a->n + 1);
    memset(q->d, 0, (a->n + 1) * sizeof *q->d);
    q->n = a->n;
    q->neg = 0;
    rem->n = 0;
    rem->neg = 0;
    big_reserve(rem, b->n + 2);
    for (size_t i = a->n; i-- > 0;) {
        /* rem = rem * BASE + a->d[i] */
        big_reserve(rem, rem->n + 2);
        memmove(rem->d + 1, rem->d, rem->n * sizeof *rem->d);
        rem->d[0] = a->d[i];
        rem->n++;
        /* largest digit x with |b| * x <= rem */
        uint32_t lo = 0, hi = BASE - 1;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo + 1) / 2;
            mul_small(&t, b, mid);
            if (cmp_abs(&t, rem) <= 0) lo = mid; else hi = mid - 1;
        }
        if (lo) {
            mul_small(&t, b, lo);
            sub_abs(rem, rem, &t);
        }
        q->d[i] = lo;
    }
    big_trim(q);
    big_trim(rem);
    big_free(&t);
}

/* floor division like Python: q = floor(a / b), r = a - q*b (sign of b) */
static void divmod_floor(big *q, big *r, const big *a, const big *b)
{
    divmod_abs(q, r, a, b);
    q->neg = q->n ? (a->neg ^ b->neg) : 0;
    r->neg = r->n ? a->neg : 0;
    if (r->n && a->neg && !b->neg) {
        big one; big_init(&one); big_set_u32(&one, 1);
        add_signed(q, q, &one, 1);          /* q -= 1 */
        add_signed(r, r, b, 0);             /* r += b */
        big_free(&one);
    }
}

static void power(big *r, const big *a, uint32_t e)
{
    big base, t;
    big_init(&base); big_init(&t);
    big_copy(&base, a);
    base.neg = 0;
    big_set_u32(r, 1);
    uint32_t k = e;
    while (k) {
        if (k & 1) { mul(&t, r, &base); big_copy(r, &t); }
        k >>= 1;
        if (k) { mul(&t, &base, &base); big_copy(&base, &t); }
    }
    r->neg = (a->neg && (e & 1)) ? 1 : 0;
    big_trim(r);
    big_free(&base); big_free(&t);
}

static void big_print(const big *b)
{
    size_t n = b->n;
    while (n > 0 && b->d[n - 1] == 0) n--;
    if (n == 0) { puts(b->neg ? "-0" : "0"); return; }
    if (b->neg) putchar('-');
    printf("%u", b->d[n - 1]);
    for (size_t i = n - 1; i-- > 0;) printf("%09u", b->d[i]);
    putchar('\n');
}

static int process(char *line)
{
    char *tok[4];
    int nt = 0;
    for (char *p = strtok(line, " \t\r\n"); p; p = strtok(NULL, " \t\r\n")) {
        if (nt == 4) { nt++; break; }
        tok[nt++] = p;
    }
    if (nt == 0) return 0;
    if (nt != 3 || strlen(tok[1]) != 1 || !strchr("+-*/%^", tok[1][0])) {
        puts("error: syntax");
        return 0;
    }
    big a, b, r, m;
    big_init(&a); big_init(&b); big_init(&r); big_init(&m);
    if (big_parse(&a, tok[0]) || big_parse(&b, tok[2])) {
        puts("error: syntax");
        goto out;
    }
    switch (tok[1][0]) {
    case '+': add_signed(&r, &a, &b, 0); big_print(&r); break;
    case '-': add_signed(&r, &a, &b, 1); big_print(&r); break;
    case '*': mul(&r, &a, &b); big_print(&r); break;
    case '/':
    case '%':
        if (b.n == 0) { puts("error: division by zero"); break; }
        divmod_floor(&r, &m, &a, &b);
        big_print(tok[1][0] == '/' ? &r : &m);
        break;
    case '^':
        {
            uint32_t e = b.n ? b.d[0] : 0;
            if (b.neg || e > MAX_EXP) { puts("error: exponent"); break; }
            power(&r, &a, e);
        }
        big_print(&r);
        break;
    }
out:
    big_free(&a); big_free(&b); big_free(&r); big_free(&m);
    return 0;
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) != -1) {
        process(line);
        fflush(stdout);
    }
    free(line);
    return 0;
}
