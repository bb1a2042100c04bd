#!/bin/bash
# Wrong: links a record to any process with its ppid, ignoring pid reuse (no lifetime check).
set -e
cat > /app/proctree <<'PY'
#!/usr/bin/env python3
import gzip
import json
import os
import struct
import sys
from datetime import datetime, timezone

REC = struct.Struct("<BBHIIIIIIfHHHHHHHH16s")
AFORK, ASU, ACORE, AXSIG = 0x01, 0x02, 0x08, 0x10


def comp(c):
    return (c & 0x1FFF) << (3 * (c >> 13))


def iso(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main(case, root_pid, root_start):
    root_pid = int(root_pid)
    root_start = int(datetime.strptime(root_start, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())
    data = b""
    p = os.path.join(case, "pacct.1.gz")
    if os.path.exists(p):
        data += gzip.decompress(open(p, "rb").read())
    for n in ("pacct.0", "pacct"):
        p = os.path.join(case, n)
        if os.path.exists(p):
            data += open(p, "rb").read()
    users = {}
    for line in open(os.path.join(case, "passwd"), encoding="utf-8"):
        f = line.split(":")
        if len(f) > 2 and f[2].isdigit():
            users.setdefault(int(f[2]), f[0])
    recs = []
    for i in range(len(data) // 64):
        (flag, ver, tty, code, uid, gid, pid, ppid, btime, etime, ut, st, *_rest, comm) = \
            REC.unpack_from(data, i * 64)
        recs.append({"flag": flag, "tty": tty, "code": code, "uid": uid, "pid": pid, "ppid": ppid,
                     "start": btime, "end": btime + etime / 100.0, "etime": etime, "cpu": comp(ut) + comp(st),
                     "comm": comm.split(b"\0", 1)[0].decode("utf-8", "replace")})
    root = next((r for r in recs if r["pid"] == root_pid and r["start"] == root_start), None)
    recorded = root is not None
    if root is None:
        root = {"pid": root_pid, "start": root_start, "end": float("inf")}
    procs = [r for r in recs if r is not root] + [root]
    bypid = {}
    for r in procs:
        bypid.setdefault(r["pid"], []).append(r)

    def parent(r):
        for c in bypid.get(r["ppid"], []):
            if c is not r and id(c) in depth:
                return c
        return None
    depth = {id(root): 0}
    changed = True
    while changed:
        changed = False
        for r in recs:
            if id(r) in depth:
                continue
            par = parent(r)
            if par is not None and id(par) in depth:
                depth[id(r)] = depth[id(par)] + 1
                changed = True
    rows = []
    for r in recs:
        if id(r) not in depth:
            continue
        sig = r["code"] & 0x7F if r["flag"] & AXSIG else None
        rows.append({"pid": r["pid"], "ppid": r["ppid"], "depth": depth[id(r)], "command": r["comm"],
                     "user": users.get(r["uid"], str(r["uid"])), "start": r["start"],
                     "elapsed": round(r["etime"] / 100.0, 2), "cpu": round(r["cpu"] / 100.0, 2),
                     "tty": f"pts/{r['tty'] & 0xFF}" if r["tty"] >> 8 == 136 else None,
                     "exit": None if sig is not None else (r["code"] >> 8) & 0xFF, "signal": sig,
                     "flags": [n for b, n in ((AFORK, "fork"), (ASU, "su"), (ACORE, "core"), (AXSIG, "signal"))
                               if r["flag"] & b]})
    rows.sort(key=lambda x: (x["start"], x["pid"]))
    for x in rows:
        x["start"] = iso(x["start"])
    json.dump({"root": {"pid": root_pid, "start": iso(root_start), "recorded": recorded}, "processes": rows},
              sys.stdout, indent=1)
    print()


main(*sys.argv[1:4])
PY
chmod +x /app/proctree
