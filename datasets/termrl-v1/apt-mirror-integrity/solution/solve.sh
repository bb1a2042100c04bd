#!/bin/bash
# Reference solution: walk Release -> Packages -> pool, checking sizes and SHA-256 at each step.
set -e
cat > /app/mirrorcheck <<'PY'
#!/usr/bin/env python3
import gzip
import hashlib
import json
import lzma
import os
import sys
from datetime import datetime, timezone


def clearsigned(text):
    lines = text.split("\n")
    i = lines.index("") + 1
    out = []
    for ln in lines[i:]:
        if ln == "-----BEGIN PGP SIGNATURE-----":
            break
        out.append(ln[2:] if ln.startswith("- ") else ln)
    return "\n".join(out)


def fields(text):
    f, last = {}, None
    for ln in text.split("\n"):
        if not ln.strip():
            continue
        if ln[0] in " \t" and last:
            f[last] += "\n" + ln.strip()
        elif ":" in ln:
            last, v = ln.split(":", 1)
            f[last] = v.strip()
    return f


def main(mirror, at):
    at = datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    found, listed = set(), {}
    dists = os.path.join(mirror, "dists")
    for suite in sorted(os.listdir(dists)):
        sd = os.path.join(dists, suite)
        name = "InRelease" if os.path.exists(os.path.join(sd, "InRelease")) else "Release"
        rp = os.path.join(sd, name)
        if not os.path.exists(rp):
            continue
        text = open(rp, encoding="utf-8").read()
        if name == "InRelease":
            text = clearsigned(text)
        f = fields(text)
        if "Valid-Until" in f:
            vu = datetime.strptime(f["Valid-Until"], "%a, %d %b %Y %H:%M:%S UTC").replace(tzinfo=timezone.utc)
            if at >= vu:
                found.add(("expired-release", f"dists/{suite}/{name}"))
        sums = {}
        for ln in f.get("SHA256", "").split("\n"):
            p = ln.split()
            if len(p) == 3:
                sums[p[2]] = (p[0].lower(), int(p[1]))
        indexes = {}
        for path in sums:
            d, base = os.path.split(path)
            if base in ("Packages", "Packages.gz", "Packages.xz") and os.path.basename(d).startswith("binary-"):
                indexes.setdefault(d, []).append(path)
        for d, variants in sorted(indexes.items()):
            present, good = [], None
            for v in sorted(variants):
                fp = os.path.join(sd, v)
                if not os.path.isfile(fp):
                    continue
                present.append(v)
                data = open(fp, "rb").read()
                h, size = sums[v]
                if len(data) == size and hashlib.sha256(data).hexdigest() == h:
                    if good is None:
                        good = gzip.decompress(data) if v.endswith(".gz") else \
                            lzma.decompress(data) if v.endswith(".xz") else data
                else:
                    found.add(("index-mismatch", f"dists/{suite}/{v}"))
            if not present:
                found.add(("missing-index", f"dists/{suite}/{d}"))
            elif good is None:
                found.add(("untrusted-index", f"dists/{suite}/{d}"))
            else:
                for para in good.decode("utf-8").split("\n\n"):
                    pf = fields(para)
                    if "Filename" in pf:
                        listed[pf["Filename"]] = (pf.get("SHA256", "").lower(), int(pf.get("Size", -1)))
    for fn, (h, size) in listed.items():
        fp = os.path.join(mirror, fn)
        if not os.path.isfile(fp):
            found.add(("missing-deb", fn))
            continue
        data = open(fp, "rb").read()
        if len(data) != size or hashlib.sha256(data).hexdigest() != h:
            found.add(("deb-mismatch", fn))
    for d, dirs, files in os.walk(os.path.join(mirror, "pool")):
        for n in files:
            rel = os.path.relpath(os.path.join(d, n), mirror)
            if n.endswith(".deb") and rel not in listed:
                found.add(("unreferenced-deb", rel))
    json.dump([{"kind": k, "path": p} for k, p in sorted(found)], sys.stdout, indent=1)
    print()


main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/mirrorcheck
