#!/bin/bash
set -euo pipefail
cd /app
patch -p1 <<'PATCH'
--- a/bigcalc.c	2026-12-05 18:44:22.208842301 +0000
+++ b/bigcalc.c	2026-12-05 18:44:22.213339115 +0000
@@ -65,7 +65,6 @@
     if (len == 0) return -1;
     for (size_t i = 0; i < len; i++)
         if (!isdigit((unsigned char)s[i])) return -1;
-    while (*s == '0') { s++; len--; }     /* drop leading zeros */
     size_t limbs = (len + BASE_DIGITS - 1) / BASE_DIGITS;
     big_reserve(b, limbs + 1);
     b->n = 0;
@@ -78,6 +77,7 @@
         end = start;
     }
     b->neg = neg;
+    big_trim(b);
     return 0;
 }
 
@@ -98,7 +98,7 @@
     uint32_t carry = 0;
     for (size_t i = 0; i < an; i++) {
         uint32_t cur = a->d[i] + carry + (i < bn ? b->d[i] : 0);
-        if (cur > BASE) { cur -= BASE; carry = 1; } else carry = 0;
+        if (cur >= BASE) { cur -= BASE; carry = 1; } else carry = 0;
         r->d[i] = cur;
     }
     r->n = an;
@@ -117,6 +117,7 @@
         r->d[i] = (uint32_t)cur;
     }
     r->n = an;
+    big_trim(r);
 }
 
 /* r = a + (negb ? -b : b) */
@@ -142,24 +143,26 @@
 static void mul(big *r, const big *a, const big *b)
 {
     size_t n = a->n + b->n;
-    /* accumulate the column sums first and normalise once at the end:
-       one division per output limb instead of one per limb product */
-    uint64_t *acc = calloc(n + 1, sizeof *acc);
-    if (!acc) { fprintf(stderr, "out of memory\n"); exit(3); }
-    for (size_t i = 0; i < a->n; i++)
-        for (size_t j = 0; j < b->n; j++)
-            acc[i + j] += (uint64_t)a->d[i] * b->d[j];
     big_reserve(r, n + 1);
-    uint64_t carry = 0;
-    for (size_t k = 0; k <= n; k++) {
-        uint64_t cur = acc[k] + carry;
-        r->d[k] = (uint32_t)(cur % BASE);
-        carry = cur / BASE;
+    memset(r->d, 0, (n + 1) * sizeof *r->d);
+    for (size_t i = 0; i < a->n; i++) {
+        uint64_t carry = 0;
+        for (size_t j = 0; j < b->n; j++) {
+            uint64_t cur = r->d[i + j] + (uint64_t)a->d[i] * b->d[j] + carry;
+            r->d[i + j] = (uint32_t)(cur % BASE);
+            carry = cur / BASE;
+        }
+        size_t k = i + b->n;
+        while (carry) {
+            uint64_t cur = r->d[k] + carry;
+            r->d[k] = (uint32_t)(cur % BASE);
+            carry = cur / BASE;
+            k++;
+        }
     }
-    free(acc);
-    r->n = n + 1;
-    big_trim(r);
+    r->n = n;
     r->neg = a->neg ^ b->neg;
+    big_trim(r);
 }
 
 /* r = |a| * m for a small m < BASE ; r must not alias a */
@@ -195,6 +198,7 @@
         memmove(rem->d + 1, rem->d, rem->n * sizeof *rem->d);
         rem->d[0] = a->d[i];
         rem->n++;
+        big_trim(rem);
         /* largest digit x with |b| * x <= rem */
         uint32_t lo = 0, hi = BASE - 1;
         while (lo < hi) {
@@ -249,7 +253,7 @@
 {
     size_t n = b->n;
     while (n > 0 && b->d[n - 1] == 0) n--;
-    if (n == 0) { puts(b->neg ? "-0" : "0"); return; }
+    if (n == 0) { puts("0"); return; }
     if (b->neg) putchar('-');
     printf("%u", b->d[n - 1]);
     for (size_t i = n - 1; i-- > 0;) printf("%09u", b->d[i]);
@@ -286,11 +290,8 @@
         big_print(tok[1][0] == '/' ? &r : &m);
         break;
     case '^':
-        {
-            uint32_t e = b.n ? b.d[0] : 0;
-            if (b.neg || e > MAX_EXP) { puts("error: exponent"); break; }
-            power(&r, &a, e);
-        }
+        if (b.neg || b.n > 1 || (b.n == 1 && b.d[0] > MAX_EXP)) { puts("error: exponent"); break; }
+        power(&r, &a, b.n ? b.d[0] : 0);
         big_print(&r);
         break;
     }
PATCH
gcc -O2 -Wall -o /app/bigcalc /app/bigcalc.c
