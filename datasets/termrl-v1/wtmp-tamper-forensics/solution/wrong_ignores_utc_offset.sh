#!/bin/bash
# Wrong: reads auth.log's local wall-clock time as if it were UTC (drops the offset).
set -e
cat > /app/wtmpcheck <<'PY'
#!/usr/bin/env python3
import json
import os
import re
import struct
import sys
from datetime import datetime, timezone

UTMP = struct.Struct("<hxxi32s4s32s256shhi2i16s20s")
RUN_LVL, BOOT_TIME, NEW_TIME, OLD_TIME, USER_PROCESS, DEAD_PROCESS = 1, 2, 3, 4, 7, 8
ACCEPT = re.compile(r"^(\S+) \S+ sshd\[\d+\]: Accepted \S+ for (\S+) from (\S+) port \d+")


def iso(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def cstr(b):
    return b.split(b"\0", 1)[0].decode("utf-8", "replace")


def main(case):
    recs, zeroed, truncated = [], [], []
    for name in ("wtmp.1", "wtmp"):
        p = os.path.join(case, name)
        if not os.path.exists(p):
            continue
        data = open(p, "rb").read()
        if len(data) % UTMP.size:
            truncated.append(name)
        for i in range(len(data) // UTMP.size):
            raw = data[i * UTMP.size:(i + 1) * UTMP.size]
            if not any(raw):
                zeroed.append({"file": name, "index": i})
                continue
            f = UTMP.unpack(raw)
            recs.append({"file": name, "index": i, "type": f[0], "line": cstr(f[2]), "user": cstr(f[4]),
                         "host": cstr(f[5]), "t": f[9]})

    ooo = []
    for a, b in zip(recs, recs[1:]):
        if b["t"] < a["t"] and not (b["type"] == NEW_TIME and a["type"] == OLD_TIME):
            ooo.append({"file": b["file"], "index": b["index"]})

    sessions, live, orphans, logins = [], {}, [], []
    for r in recs:
        if r["type"] == USER_PROCESS and r["user"]:
            logins.append(r)
            if r["line"] in live:
                s = live.pop(r["line"])
                s["logout"], s["end"] = iso(r["t"]), "gone"
            s = {"user": r["user"], "line": r["line"], "host": r["host"], "login": iso(r["t"]),
                 "logout": None, "end": "still-logged-in"}
            sessions.append(s)
            live[r["line"]] = s
        elif r["type"] == DEAD_PROCESS:
            s = live.pop(r["line"], None)
            if s is None:
                orphans.append({"file": r["file"], "index": r["index"], "line": r["line"]})
            else:
                s["logout"], s["end"] = iso(r["t"]), "logout"
        elif r["type"] == BOOT_TIME or (r["type"] == RUN_LVL and r["user"] == "shutdown"):
            for s in live.values():
                s["logout"], s["end"] = iso(r["t"]), "crash" if r["type"] == BOOT_TIME else "down"
            live.clear()

    accepted = []
    for line in open(os.path.join(case, "auth.log"), encoding="utf-8", errors="replace"):
        m = ACCEPT.match(line)
        if m:
            t = int(datetime.fromisoformat(m.group(1)[:19]).replace(tzinfo=timezone.utc).timestamp())
            accepted.append((t, m.group(2), m.group(3)))
    accepted.sort(key=lambda a: a[0])
    used, missing = set(), []
    for t, user, host in accepted:
        best = None
        for k, r in enumerate(logins):
            if k in used or r["user"] != user or r["host"] != host or not 0 <= r["t"] - t <= 5:
                continue
            if best is None or r["t"] < logins[best]["t"]:
                best = k
        if best is None:
            missing.append({"user": user, "host": host, "time": iso(t)})
        else:
            used.add(best)

    users = []
    for line in open(os.path.join(case, "passwd"), encoding="utf-8"):
        parts = line.rstrip("\n").split(":")
        if len(parts) >= 3 and parts[2].isdigit():
            users.append((parts[0], int(parts[2])))
    ll = open(os.path.join(case, "lastlog"), "rb").read()
    first = recs[0]["t"] if recs else None
    mism = []
    for user, uid in sorted(users):
        raw = ll[uid * 292:uid * 292 + 4]
        t = struct.unpack("<i", raw)[0] if len(raw) == 4 else 0
        if not t or first is None or t < first:
            continue
        mine = [r["t"] for r in logins if r["user"] == user]
        last = max(mine) if mine else None
        if last != t:
            mism.append({"user": user, "lastlog": iso(t), "wtmp": iso(last) if last is not None else None})

    json.dump({"sessions": sessions, "zeroed_records": zeroed, "out_of_order": ooo, "orphan_logouts": orphans,
               "missing_logins": missing, "lastlog_mismatch": mism, "truncated": truncated}, sys.stdout, indent=1)
    print()


main(sys.argv[1])
PY
chmod +x /app/wtmpcheck
