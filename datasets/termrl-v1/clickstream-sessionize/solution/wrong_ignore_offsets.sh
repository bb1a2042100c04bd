#!/bin/bash
set -euo pipefail
cat > /app/sessionize.py <<'PY'
import csv
import datetime as dt
import json
import sys
from collections import defaultdict


def parse_ts(v):
    if isinstance(v, bool):
        raise ValueError
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        d = dt.datetime.strptime(v[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=dt.timezone.utc)
        return int(d.timestamp())
    raise ValueError


def fmt(t):
    return dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


by_user = defaultdict(list)
with open(sys.argv[1], encoding="utf-8") as f:
    for i, line in enumerate(f):
        if not line.strip():
            continue
        try:
            o = json.loads(line)
            if not isinstance(o, dict) or not all(k in o for k in ("user", "ts", "type", "page")):
                continue
            if o["type"] not in ("pageview", "click", "heartbeat"):
                continue
            t = parse_ts(o["ts"])
        except (ValueError, TypeError):
            continue
        by_user[o["user"]].append((t, i, o))

rows = []
for user, evs in by_user.items():
    evs.sort(key=lambda e: (e[0], e[1]))
    sessions = []
    for t, _, o in evs:
        if sessions and t - sessions[-1][-1][0] < 1800 and t - sessions[-1][0][0] <= 14400:
            sessions[-1].append((t, o))
        else:
            sessions.append([(t, o)])
    for n, s in enumerate(sessions, 1):
        pv = [o for _, o in s if o["type"] == "pageview"]
        rows.append((s[0][0], user, n, [f"{user}-{n}", user, fmt(s[0][0]), fmt(s[-1][0]), s[-1][0] - s[0][0], len(pv),
                     sum(o["type"] == "click" for _, o in s), pv[0]["page"] if pv else "", pv[-1]["page"] if pv else ""]))
rows.sort(key=lambda r: (r[0], r[1], r[2]))
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["session_id", "user", "start", "end", "duration_s", "pageviews", "clicks", "landing_page", "exit_page"])
    for r in rows:
        w.writerow(r[3])
PY
