#!/bin/bash
# Wrong: counts failures within fail_interval of now instead of the latest failure.
set -e
cat > /app/faillockaudit <<'PY'
#!/usr/bin/env python3
import json
import os
import struct
import sys
from datetime import datetime, timezone


def iso(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def conf(path):
    c = {"deny": 3, "fail_interval": 900, "unlock_time": 600, "even_deny_root": False, "root_unlock_time": None,
         "admin_group": None}
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if "=" in line:
            k, v = (x.strip() for x in line.split("=", 1))
            if k in ("deny", "fail_interval", "unlock_time", "root_unlock_time"):
                c[k] = int(v)
            elif k == "admin_group":
                c[k] = v
        elif line == "even_deny_root":
            c["even_deny_root"] = True
    if c["root_unlock_time"] is None:
        c["root_unlock_time"] = c["unlock_time"]
    return c


def main(d, at):
    now = int(datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())
    c = conf(os.path.join(d, "faillock.conf"))
    uids = {}
    for line in open(os.path.join(d, "passwd")):
        f = line.rstrip("\n").split(":")
        if len(f) > 2:
            uids[f[0]] = int(f[2])
    admins = set()
    for line in open(os.path.join(d, "group")):
        f = line.rstrip("\n").split(":")
        if len(f) > 3 and c["admin_group"] and f[0] == c["admin_group"]:
            admins.update(x for x in f[3].split(",") if x)
    out = []
    for user in sorted(os.listdir(os.path.join(d, "faillock"))):
        data = open(os.path.join(d, "faillock", user), "rb").read()
        recs = []
        for i in range(len(data) // 64):
            src = data[i * 64:i * 64 + 52].split(b"\0", 1)[0].decode("utf-8", "replace")
            _, st, t = struct.unpack_from("<HHQ", data, i * 64 + 52)
            if st & 1:
                recs.append((src, st, t))
        latest = max((t for _, _, t in recs), default=None)
        counted = [x for x in recs if now - x[2] < c["fail_interval"]] if recs else []
        rootlike = uids.get(user) == 0 or user in admins
        locked, unlock_at = False, None
        if c["deny"] > 0 and len(counted) >= c["deny"] and (not rootlike or c["even_deny_root"]):
            ut = c["root_unlock_time"] if rootlike else c["unlock_time"]
            if not (ut > 0 and latest + ut < now):
                locked = True
                unlock_at = iso(latest + ut + 1) if ut > 0 else None
        srcs = sorted({("rhost:" if s & 2 else "tty:" if s & 4 else "service:") + src for src, s, _ in counted})
        out.append({"user": user, "failures": len(counted), "latest": iso(latest) if latest is not None else None,
                    "locked": locked, "unlock_at": unlock_at, "sources": srcs})
    json.dump(out, sys.stdout, indent=1)
    print()


main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/faillockaudit
