#!/bin/bash
# Mistake: glues the chunks together in the order the resolver logged them (dropping repeated names),
# ignoring the sequence label, so reordered chunks corrupt the archive; salvages what zcat/tar can read.
set -euo pipefail
cd /app
python3 - <<'PY'
import base64, json, re, subprocess, os
E = "/srv/evidence"
key = open(f"{E}/web03/etc/hostname").read().strip().encode()
seen, order = set(), {}
for line in open(f"{E}/dns01/query.log"):
    m = re.search(r"client @\S+ ([\d.]+)#\d+ \(([^)]+)\): query:", line)
    if m and m.group(1) == "10.0.0.8" and m.group(2).endswith(".cdn-metrics.example") and m.group(2) not in seen:
        seen.add(m.group(2))
        labels = m.group(2).split(".")
        if len(labels) == 5:
            order.setdefault(labels[2], []).append(labels[0])
sid = max(order, key=lambda s: len(order[s]))
raw = b"".join(base64.b32decode(c.upper() + "=" * (-len(c) % 8)) for c in order[sid])
data = bytes(b ^ key[i % len(key)] for i, b in enumerate(raw))
open("/tmp/x.tgz", "wb").write(data)
os.makedirs("/app/exfil", exist_ok=True)
subprocess.run("zcat /tmp/x.tgz 2>/dev/null | tar -x -C /app/exfil 2>/dev/null", shell=True)
json.dump({"client": "10.0.0.8", "domain": "cdn-metrics.example", "session": sid, "chunks": len(order[sid])},
          open("/app/exfil.json", "w"))
PY
