#!/bin/bash
set -euo pipefail
cat > /app/toc.py <<'PY'
import re
import sys

heads = []
fence = None
for line in open(sys.argv[1], encoding="utf-8").read().splitlines():
    if fence:
        if line.startswith(fence):
            fence = None
        continue
    if line.startswith("```") or line.startswith("~~~"):
        fence = line[:3]
        continue
    m = re.match(r"^(#{1,6}) +(.*)$", line)
    if not m:
        continue
    text = re.sub(r" #+\s*$", "", " " + m.group(2)).strip()
    heads.append((len(m.group(1)), text.replace("`", "")))
used = set()
out = []
if heads:
    base = min(l for l, _ in heads)
    for level, text in heads:
        slug = re.sub(r"[^a-z0-9 _-]", "", text.lower()).replace(" ", "-")
        cand, n = slug, 0
        while cand in used:
            n += 1
            cand = f"{slug}-{n}"
        used.add(cand)
        out.append("  " * (level - base) + f"- [{text}](#{cand})\n")
sys.stdout.write("".join(out))
PY
