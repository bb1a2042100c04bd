#!/bin/bash
set -euo pipefail
cat > /app/table.py <<'PY'
import csv
import re
import sys

args = sys.argv[1:]
maxw = None
if "--max-width" in args:
    i = args.index("--max-width")
    maxw = int(args[i + 1])
    del args[i:i + 2]
rows = list(csv.reader(open(args[0], newline="", encoding="utf-8")))
header, data = rows[0], rows[1:]
n = len(header)
data = [(r + [""] * n)[:n] for r in data]
def cut(s):
    return s if maxw is None or len(s) <= maxw else s[:maxw - 1] + "~"


header = [cut(h) for h in header]
data = [[cut(c) for c in r] for r in data]
num = []
for j in range(n):
    vals = [r[j] for r in data if r[j] != ""]
    num.append(bool(vals) and all(re.fullmatch(r"-?\d+(\.\d+)?", v) for v in vals))


w = [max(len(x) for x in [header[j]] + [r[j] for r in data]) for j in range(n)]
sep = "+" + "+".join("-" * (x + 2) for x in w) + "+"
out = [sep, "|" + "|".join(f" {header[j].ljust(w[j])} " for j in range(n)) + "|", sep]
for r in data:
    out.append("|" + "|".join(f" {r[j].rjust(w[j]) if num[j] else r[j].ljust(w[j])} " for j in range(n)) + "|")
out.append(sep)
sys.stdout.write("\n".join(out) + "\n")
PY
