#!/bin/bash
set -euo pipefail
cat > /app/nb.py <<'PY'
import argparse
import csv
import math
import re
from collections import Counter

ap = argparse.ArgumentParser()
ap.add_argument("train")
ap.add_argument("test")
ap.add_argument("stop")
ap.add_argument("out")
ap.add_argument("--alpha", type=float, default=1.0)
a = ap.parse_args()
stop = {l.strip().lower() for l in open(a.stop, encoding="utf-8") if l.strip() and not l.startswith("#")}


def toks(text):
    return [t for t in re.findall(r"[a-z0-9']+", text.lower()) if t not in stop]


docs = [(toks(r["text"]), r["label"]) for r in csv.DictReader(open(a.train, newline="", encoding="utf-8"))]
classes = sorted({c for _, c in docs})
vocab = {t for d, _ in docs for t in d}
cnt = {c: Counter() for c in classes}
ndoc = Counter(c for _, c in docs)
for d, c in docs:
    cnt[c].update(d)
tot = {c: sum(cnt[c].values()) for c in classes}
prior = {c: math.log(ndoc[c] / len(docs)) for c in classes}
with open(a.out, "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f)
    w.writerow(["id", "label"] + [f"logp_{c}" for c in classes])
    for r in csv.DictReader(open(a.test, newline="", encoding="utf-8")):
        ts = [t for t in toks(r["text"]) if t in vocab]
        lp = {c: prior[c] + sum(math.log((cnt[c][t] + a.alpha) / (tot[c] + a.alpha * len(cnt[c]))) for t in ts) for c in classes}
        best = min(classes, key=lambda c: (-lp[c], c))
        w.writerow([r["id"], best] + [repr(lp[c]) for c in classes])
PY
