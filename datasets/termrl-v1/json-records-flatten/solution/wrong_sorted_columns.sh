#!/bin/bash
set -euo pipefail
cat > /app/flatten.py <<'PY'
import csv
import json
import sys


def esc(k):
    return str(k).replace("\\", "\\\\").replace(".", "\\.")


def flat(v, path, out):
    if isinstance(v, dict):
        if not v:
            out[path] = "{}"
        for k, x in v.items():
            flat(x, f"{path}.{esc(k)}" if path else esc(k), out)
    elif isinstance(v, list):
        if not v:
            out[path] = "[]"
        for i, x in enumerate(v):
            flat(x, f"{path}.{i}" if path else str(i), out)
    elif v is None:
        out[path] = ""
    elif isinstance(v, str):
        out[path] = v
    else:
        out[path] = json.dumps(v)


try:
    data = json.load(open(sys.argv[1], encoding="utf-8"))
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise ValueError("input must be a JSON array of objects")
except ValueError as e:
    sys.stderr.write(f"flatten: {e}\n")
    sys.exit(1)
rows, cols = [], {}
for r in data:
    out = {}
    flat(r, "", out)
    rows.append(out)
    for c in out:
        cols.setdefault(c, None)
with open(sys.argv[2], "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f)
    cols = dict.fromkeys(sorted(cols))
    w.writerow(list(cols))
    for r in rows:
        w.writerow([r.get(c, "") for c in cols])
PY
