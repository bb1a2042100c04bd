import csv
import math
import re


def tokens(text, stop):
    return [t for t in re.findall(r"[a-z0-9']+", text.lower()) if t not in stop]


def run(train, test, stopfile, alpha):
    stop = {l.strip().lower() for l in open(stopfile) if l.strip() and not l.startswith("#")}
    docs = [(tokens(r["text"], stop), r["label"]) for r in csv.DictReader(open(train, newline="", encoding="utf-8"))]
    classes = sorted({c for _, c in docs})
    vocab = sorted({t for d, _ in docs for t in d})
    V = len(vocab)
    counts = {c: {} for c in classes}
    total = {c: 0 for c in classes}
    ndoc = {c: 0 for c in classes}
    for d, c in docs:
        ndoc[c] += 1
        for t in d:
            counts[c][t] = counts[c].get(t, 0) + 1
            total[c] += 1
    vs = set(vocab)
    out = []
    for r in csv.DictReader(open(test, newline="", encoding="utf-8")):
        toks = [t for t in tokens(r["text"], stop) if t in vs]
        lp = {}
        for c in classes:
            s = math.log(ndoc[c] / len(docs))
            for t in toks:
                s += math.log((counts[c].get(t, 0) + alpha) / (total[c] + alpha * V))
            lp[c] = s
        best = max(classes, key=lambda c: (lp[c], [-ord(ch) for ch in c]))
        best = sorted(classes, key=lambda c: (-lp[c], c))[0]
        out.append((r["id"], best, lp))
    return classes, out
