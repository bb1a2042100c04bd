#!/bin/bash
# Wrong: takes owner names literally (relative names are not qualified with the origin).
set -e
cat > /app/sshfpcheck <<'PY'
#!/usr/bin/env python3
import base64
import glob
import hashlib
import json
import os
import sys

ALGO = {"ssh-rsa": 1, "ssh-dss": 2, "ecdsa-sha2-nistp256": 3, "ssh-ed25519": 4}


def main(d):
    origin, recs = ".", {}
    for line in open(os.path.join(d, "zone.db")):
        line = line.split(";", 1)[0].strip()
        if not line:
            continue
        t = line.split()
        if t[0].startswith("$"):
            if t[0].upper() == "$ORIGIN":
                origin = t[1] if t[1].endswith(".") else t[1] + "."
            continue
        if "SSHFP" not in [x.upper() for x in t]:
            continue
        k = [x.upper() for x in t].index("SSHFP")
        owner = t[0]
        name = owner if owner.endswith(".") else owner + "."
        alg, fpt, hx = int(t[k + 1]), int(t[k + 2]), "".join(t[k + 3:]).lower()
        if fpt == 2:
            recs.setdefault(name.lower(), {}).setdefault(alg, set()).add(hx)
    out = []
    for h in sorted(os.listdir(os.path.join(d, "hosts"))):
        mine = recs.get((h + "." + origin).lower(), {})
        keys, have = [], set()
        for kf in sorted(glob.glob(os.path.join(d, "hosts", h, "ssh_host_*_key.pub"))):
            typ, b64 = open(kf).read().split()[:2]
            alg = ALGO[typ]
            have.add(alg)
            fp = hashlib.sha256(base64.b64decode(b64)).hexdigest()
            st = "ok" if fp in mine.get(alg, set()) else "mismatch" if mine.get(alg) else "missing"
            keys.append({"type": typ, "status": st})
        keys.sort(key=lambda k: k["type"])
        out.append({"host": h, "keys": keys, "stale_algorithms": sorted(a for a in mine if a not in have)})
    json.dump(out, sys.stdout, indent=1)
    print()


main(sys.argv[1])
PY
chmod +x /app/sshfpcheck
