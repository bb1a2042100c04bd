#!/bin/bash
set -euo pipefail
cat > /app/features.py <<'PY'
import csv
import sys
from collections import defaultdict
from datetime import date


def main(inp, outp):
    with open(inp, newline="") as f:
        rows = list(csv.DictReader(f))
    hist = defaultdict(dict)
    for r in rows:
        hist[r["entity"]][date.fromisoformat(r["date"]).toordinal()] = (
            float(r["value"]) if r["value"] != "" else None)
    days = {e: sorted(h) for e, h in hist.items()}

    def fmt(v):
        return "" if v is None else repr(float(v))

    with open(outp, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["entity", "date", "lag_1", "lag_7", "roll_mean_7", "roll_max_28", "days_since_prev"])
        for r in rows:
            e = r["entity"]
            h = hist[e]
            d = date.fromisoformat(r["date"]).toordinal()
            w7 = [h[x] for x in range(d - 7, d) if h.get(x) is not None]
            w28 = [h[x] for x in range(d - 28, d) if h.get(x) is not None]
            prev = [x for x in days[e] if x < d]
            w.writerow([e, r["date"], fmt(h.get(d - 1)), fmt(h.get(d - 7)),
                        fmt(sum(w7) / len(w7) if len(w7) >= 3 else None),
                        fmt(max(w28) if w28 else None),
                        str(d - prev[-1]) if prev else ""])


main(sys.argv[1], sys.argv[2])
PY
