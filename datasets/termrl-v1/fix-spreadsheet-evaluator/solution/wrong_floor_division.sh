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
 
 
@@ -200,7 +200,7 @@
         self.content = {}
         self.ast = {}
         self.values = {}
-        self.visiting = set()
+        self.on_cycle = set()
 
     def load(self, lines):
         for line in lines:
@@ -225,19 +225,48 @@
             except SheetError as e:
                 self.ast[cell] = ("error", e.code)
 
+    def find_cycles(self):
+        graph = {c: [d for d in references(self.ast[c], []) if d in self.ast] for c in self.order}
+        index, low, stack, onstack = {}, {}, [], set()
+        counter = [0]
+
+        def strong(v):
+            index[v] = low[v] = counter[0]
+            counter[0] += 1
+            stack.append(v)
+            onstack.add(v)
+            for w in graph[v]:
+                if w not in index:
+                    strong(w)
+                    low[v] = min(low[v], low[w])
+                elif w in onstack:
+                    low[v] = min(low[v], index[w])
+            if low[v] == index[v]:
+                comp = []
+                while True:
+                    w = stack.pop()
+                    onstack.discard(w)
+                    comp.append(w)
+                    if w == v:
+                        break
+                if len(comp) > 1 or v in graph[v]:
+                    self.on_cycle.update(comp)
+
+        for c in self.order:
+            if c not in index:
+                strong(c)
+
     def value(self, cell):
         if cell not in self.ast:
             return 0
         if cell not in self.values:
-            if cell in self.visiting:
-                raise SheetError("#CYCLE")
-            self.visiting.add(cell)
-            try:
-                self.values[cell] = self.eval(self.ast[cell])
-            except SheetError as e:
-                self.values[cell] = e
-            finally:
-                self.visiting.discard(cell)
+            if cell in self.on_cycle:
+                self.values[cell] = SheetError("#CYCLE")
+            else:
+                try:
+                    self.values[cell] = self.eval(self.ast[cell])
+                except SheetError as e:
+                    self.values[cell] = e
         v = self.values[cell]
         if isinstance(v, SheetError):
             raise v
@@ -273,12 +302,11 @@
                     vals.extend(self.value(c) for c in range_cells(a[1], a[2]))
                 else:
                     vals.append(self.eval(a))
-            if not vals:
-                return 0
             return {"SUM": sum, "MIN": min, "MAX": max}[node[1]](vals)
         raise SheetError("#PARSE")
 
     def results(self):
+        self.find_cycles()
         out = []
         for cell in self.order:
             try:
PATCH
