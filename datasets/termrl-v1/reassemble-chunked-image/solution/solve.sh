#!/bin/bash
set -euo pipefail
mkdir -p /app/out
python3 - <<'PY'
import hashlib, json, os
m = json.load(open("/app/upload/manifest.json"))
d = "/app/upload/chunks"
by_hash = {}
for n in sorted(os.listdir(d)):
    by_hash.setdefault(hashlib.sha256(open(os.path.join(d, n), "rb").read()).hexdigest(), n)
used, parts = set(), []
for c in sorted(m["chunks"], key=lambda c: c["index"]):
    n = by_hash[c["sha256"]]
    used.add(n)
    parts.append(open(os.path.join(d, n), "rb").read())
data = b"".join(parts)
assert len(data) == m["size"] and hashlib.sha256(data).hexdigest() == m["sha256"]
open(os.path.join("/app/out", m["file"]), "wb").write(data)
open("/app/out/unused_chunks.txt", "w").write("".join(n + "\n" for n in sorted(set(os.listdir(d)) - used)))
PY
