#!/bin/bash
# Wrong: hashes the concatenated field contents, leaving out the u32 length prefixes.
set -e
cat > /app/imacheck <<'PY'
#!/usr/bin/env python3
import hashlib
import json
import os
import struct
import sys


def fields(data):
    out, i = [], 0
    while i + 4 <= len(data):
        n = struct.unpack_from("<I", data, i)[0]
        out.append(data[i + 4:i + 4 + n])
        i += 4 + n
    return out


def main(case):
    log = open(os.path.join(case, "binary_runtime_measurements"), "rb").read()
    quotes = sorted(json.load(open(os.path.join(case, "quotes.json"))), key=lambda q: q["entries"])
    allowed = {}
    for line in open(os.path.join(case, "allowlist.txt"), encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        d, p = line.split(None, 1)
        allowed.setdefault(p.strip(), set()).add(d.lower())
    entries, i = [], 0
    while i < len(log):
        pcr, = struct.unpack_from("<I", log, i)
        tdig = log[i + 4:i + 24]
        n = struct.unpack_from("<I", log, i + 24)[0]
        name = log[i + 28:i + 28 + n].decode()
        i += 28 + n
        m = struct.unpack_from("<I", log, i)[0]
        data = log[i + 4:i + 4 + m]
        i += 4 + m
        f = fields(data)
        algo, digest = f[0].split(b":\0", 1)
        path = f[1].rstrip(b"\0").decode("utf-8", "replace")
        entries.append({"pcr": pcr, "tdig": tdig, "template": name, "data": data, "algo": algo.decode(),
                        "digest": digest.hex(), "path": path})
    zero, ff = bytes(20), b"\xff" * 20
    pcr, prefix = zero, []
    errors = []
    for k, e in enumerate(entries):
        viol = e["tdig"] == zero
        if not viol and hashlib.sha1(b"".join(fields(e["data"]))).digest() != e["tdig"]:
            errors.append(k)
        pcr = hashlib.sha1(pcr + (ff if viol else e["tdig"])).digest()
        prefix.append(pcr.hex())
        e["viol"] = viol
    qres, trusted, good = [], 0, True
    for q in quotes:
        n = q["entries"]
        m = 0 < n <= len(prefix) and prefix[n - 1] == q["pcr10"].lower()
        qres.append({"entries": n, "match": m})
        good = good and m
        if good:
            trusted = n
    rows = []
    for k, e in enumerate(entries):
        if e["path"] == "boot_aggregate":
            st = "boot"
        elif e["viol"]:
            st = "violation"
        elif e["path"] not in allowed:
            st = "unknown"
        elif e["digest"] in allowed[e["path"]]:
            st = "ok"
        else:
            st = "modified"
        rows.append({"index": k, "template": e["template"], "path": e["path"], "algo": e["algo"],
                     "digest": e["digest"], "status": st, "trusted": k < trusted})
    json.dump({"entries": rows, "template_hash_errors": errors, "quotes": qres, "trusted_entries": trusted},
              sys.stdout, indent=1)
    print()


main(sys.argv[1])
PY
chmod +x /app/imacheck
