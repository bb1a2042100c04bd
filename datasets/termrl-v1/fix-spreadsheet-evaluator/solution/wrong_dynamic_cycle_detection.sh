#!/bin/bash
set -euo pipefail
cd /app
patch -p1 <<'PATCH'
--- a/sheet/sheet.py
+++ b/sheet/sheet.py
@@ -38,8 +38,8 @@
 def col_letters(n):
     s = ""
     while n > 0:
-        n, r = divmod(n, 26)
-        s = chr(ord("A") + r - 1) + s
+        n, r = divmod(n - 1, 26)
+        s = chr(ord("A") + r) + s
     return s
 
 
@@ -112,9 +112,9 @@
 
     def expr(self):
         left = self.term()
-        if self.peek() in (("op", "+"), ("op", "-")):
+        while self.peek() in (("op", "+"), ("op", "-")):
             op = self.take()[1]
-            return ("bin", op, left, self.expr())
+            left = ("bin", op, left, self.term())
         return left
 
     def term(self):
@@ -183,7 +183,7 @@
     """names of the cells of the rectangle with corners a and b, row by row"""
     (ca, ra), (cb, rb) = split_cell(a), split_cell(b)
     c1, c2 = sorted((ca, cb))
-    r1, r2 = ra, rb
+    r1, r2 = sorted((ra, rb))
     return [col_letters(c) + str(r) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]
 
 
@@ -265,7 +265,7 @@
                 return a * b
             if b == 0:
                 raise SheetError("#DIV0")
-            return a // b
+            return trunc_div(a, b)
         if kind == "func":
             vals = []
             for a in node[2]:
@@ -273,8 +273,6 @@
                     vals.extend(self.value(c) for c in range_cells(a[1], a[2]))
                 else:
                     vals.append(self.eval(a))
-            if not vals:
-                return 0
             return {"SUM": sum, "MIN": min, "MAX": max}[node[1]](vals)
         raise SheetError("#PARSE")
 
PATCH
