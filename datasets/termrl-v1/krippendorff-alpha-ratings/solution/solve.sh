#!/bin/bash
set -euo pipefail
cat > /app/kalpha.py <<'PY'
import csv
import json
import sys
from collections import defaultdict


def delta2(metric, values, n_c):
    idx = {v: i for i, v in enumerate(values)}
    cum = [0.0]
    for v in values:
        cum.append(cum[-1] + n_c[v])

    def d(c, k):
        if metric == "nominal":
            return 0.0 if c == k else 1.0
        if metric == "interval":
            return (c - k) ** 2
        if metric == "ratio":
            return 0.0 if c + k == 0 else ((c - k) / (c + k)) ** 2
        a, b = sorted((idx[c], idx[k]))
        return (cum[b + 1] - cum[a] - (n_c[c] + n_c[k]) / 2.0) ** 2

    return d


def main(src, dst):
    last = {}
    with open(src, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["unit"], r["coder"])
            v = r["value"].strip()
            last[key] = None if v == "" else float(v)
    units = defaultdict(list)
    for (u, _), v in last.items():
        if v is not None:
            units[u].append(v)
    o = defaultdict(float)
    used = 0
    for u, vals in units.items():
        m = len(vals)
        if m < 2:
            continue
        used += 1
        for i in range(m):
            for j in range(m):
                if i != j:
                    o[(vals[i], vals[j])] += 1.0 / (m - 1)
    n_c = defaultdict(float)
    for (c, k), w in o.items():
        n_c[c] += w
    n = sum(n_c.values())
    values = sorted(n_c)
    out = {"units_used": used, "pairable_values": round(n)}
    for metric in ("nominal", "ordinal", "interval", "ratio"):
        d = delta2(metric, values, n_c)
        do = sum(w * d(c, k) for (c, k), w in o.items())
        de = sum(n_c[c] * n_c[k] * d(c, k) for c in values for k in values)
        out[metric] = None if n <= 1 or de == 0 else 1.0 - (n - 1) * do / de
    with open(dst, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
PY
