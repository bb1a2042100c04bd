#!/bin/bash
# Reassemble the DNS exfiltration: query names <chunk>.<seq hex>.<transfer id>.cdn-metrics.example from web03,
# chunk = base32 (lower case, unpadded) of the archive XORed with web03's host name; retries and reordering.
set -euo pipefail
cd /app
python3 - <<'PY'
import base64, gzip, io, json, os, re, tarfile
from collections import defaultdict

E = "/srv/evidence"
host = open(f"{E}/web03/etc/hostname").read().strip()
client = re.search(r"address\s+([\d.]+)", open(f"{E}/web03/etc/network/interfaces").read()).group(1)
domain = "cdn-metrics.example"
pat = re.compile(r"client @\S+ ([\d.]+)#\d+ \(([^)]+)\): query:")
xfers = defaultdict(dict)
for line in open(f"{E}/dns01/query.log"):
    m = pat.search(line)
    if not m or m.group(1) != client or not m.group(2).endswith("." + domain):
        continue
    labels = m.group(2)[: -len(domain) - 1].split(".")
    if len(labels) != 3:
        continue
    chunk, seq, sid = labels
    prev = xfers[sid].setdefault(int(seq, 16), chunk)
    assert prev == chunk, "a retry must repeat the same chunk"

key = host.encode()
best = None
for sid, parts in xfers.items():
    if sorted(parts) != list(range(len(parts))):
        continue
    raw = b"".join(base64.b32decode(parts[i].upper() + "=" * (-len(parts[i]) % 8)) for i in range(len(parts)))
    data = bytes(b ^ key[i % len(key)] for i, b in enumerate(raw))
    try:
        tar_bytes = gzip.decompress(data)
    except Exception:
        continue                                # an aborted transfer: truncated stream
    best = (sid, len(parts), tar_bytes)
assert best, "no complete transfer"
sid, n, tar_bytes = best
with tarfile.open(fileobj=io.BytesIO(tar_bytes)) as tar:
    for member in tar.getmembers():
        assert member.isfile() and not member.name.startswith("/") and ".." not in member.name.split("/")
        out = os.path.join("/app/exfil", member.name)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(tar.extractfile(member).read())
json.dump({"client": client, "domain": domain, "session": sid, "chunks": n}, open("/app/exfil.json", "w"), indent=1)
print(sid, n, sorted(m.name for m in tarfile.open(fileobj=io.BytesIO(tar_bytes)).getmembers()))
PY
