#!/bin/bash
set -euo pipefail
cd /app
patch -p1 <<'PATCH'
--- a/bpe/bpe.py
+++ b/bpe/bpe.py
@@ -24,9 +24,15 @@
 def merge_symbols(symbols, pair):
     """Replace every occurrence of `pair`, left to right, by the joined symbol."""
     a, b = pair
-    joined = " ".join(symbols)
-    joined = joined.replace(a + " " + b, a + b)
-    return joined.split(" ")
+    out, i = [], 0
+    while i < len(symbols):
+        if i + 1 < len(symbols) and symbols[i] == a and symbols[i + 1] == b:
+            out.append(a + b)
+            i += 2
+        else:
+            out.append(symbols[i])
+            i += 1
+    return out
 
 
 def pair_counts(symbols):
@@ -40,9 +46,8 @@
     freq = Counter()
     with open(path, encoding="utf-8") as f:
         for line in f:
-            for w in line.rstrip("\n").split(" "):
-                if w:
-                    freq[w] += 1
+            for w in line.split():
+                freq[w] += 1
     return freq
 
 
@@ -64,8 +69,8 @@
         live = {p: c for p, c in self.stats.items() if c > 0}
         if not live:
             return None
-        # most frequent pair
-        return max(live.items(), key=lambda kv: kv[1])[0]
+        # most frequent pair; ties -> the smallest (left, right)
+        return min(live, key=lambda p: (-live[p], p))
 
     def apply(self, pair):
         for i in sorted(self.where.pop(pair, ())):
@@ -74,8 +79,8 @@
             if new == old:
                 continue
             f = self.freq[i]
-            for p in set(zip(old, old[1:])):
-                self.stats[p] -= f
+            for p, c in pair_counts(old).items():
+                self.stats[p] -= c * f
             for p, c in pair_counts(new).items():
                 self.stats[p] += c * f
                 self.where[p].add(i)
PATCH
