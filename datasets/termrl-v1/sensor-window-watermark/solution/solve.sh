#!/bin/bash
# Reference: one state file (JSON) per state directory; events processed in file order.
set -euo pipefail
cat > /app/winagg.py <<'PY'
#!/usr/bin/env python3
"""winagg.py STATE_DIR BATCH.jsonl | winagg.py STATE_DIR --flush

5-minute tumbling windows per sensor, watermark = latest accepted event time - 2 min."""
import csv
import json
import os
import re
import sys
from datetime import datetime, timedelta, timezone
from decimal import Decimal

WINDOW = timedelta(minutes=5)
LATENESS = timedelta(minutes=2)
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
TS = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})")


def parse_ts(s):
    m = TS.fullmatch(s) if isinstance(s, str) else None
    if not m:
        return None
    try:
        dt = datetime.strptime(m.group(1) + (m.group(2) or ".0"), "%Y-%m-%dT%H:%M:%S.%f")
    except ValueError:
        return None
    off = m.group(3)
    if off == "Z":
        return dt.replace(tzinfo=timezone.utc)
    delta = timedelta(hours=int(off[1:3]), minutes=int(off[4:6]))
    return dt.replace(tzinfo=timezone.utc) - (delta if off[0] == "+" else -delta)


def parse(line):
    try:
        obj = json.loads(line, parse_float=Decimal)
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    eid, sensor, value = obj.get("id"), obj.get("sensor"), obj.get("value")
    t = parse_ts(obj.get("ts"))
    if not (isinstance(eid, str) and eid and isinstance(sensor, str) and sensor and t is not None):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        return None
    return eid, sensor, t, Decimal(value)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S") + (f".{t.microsecond:06d}" if t.microsecond else "") + "Z"


def num(d):
    return f"{Decimal(d).quantize(Decimal('0.001')):f}"


class Agg:
    def __init__(self, d):
        self.dir = d
        self.path = os.path.join(d, ".winagg-state.json")
        st = {"seen": [], "maxts": None, "open": []}
        if os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as f:
                st = json.load(f)
        self.seen = set(st["seen"])
        self.maxts = datetime.fromisoformat(st["maxts"]) if st["maxts"] else None
        self.open = {(datetime.fromisoformat(s), sensor): [c, Decimal(a), Decimal(lo), Decimal(hi)]
                     for s, sensor, c, a, lo, hi in st["open"]}
        self.win_rows, self.late_rows = [], []

    def save(self):
        for name, header, rows in (("windows.csv", ["window_start", "sensor", "count", "sum", "min", "max"], self.win_rows),
                                   ("late.csv", ["id", "sensor", "ts", "value"], self.late_rows)):
            p = os.path.join(self.dir, name)
            new = not os.path.exists(p)
            with open(p, "a", newline="", encoding="utf-8") as f:
                w = csv.writer(f, lineterminator="\n")
                if new:
                    w.writerow(header)
                w.writerows(rows)
        st = {"seen": sorted(self.seen), "maxts": self.maxts.isoformat() if self.maxts else None,
              "open": [[s.isoformat(), sensor, c, str(a), str(lo), str(hi)]
                       for (s, sensor), (c, a, lo, hi) in self.open.items()]}
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(st, f)
        os.replace(tmp, self.path)

    def emit(self, keys):
        for k in sorted(keys):
            c, a, lo, hi = self.open.pop(k)
            self.win_rows.append([iso(k[0]), k[1], c, num(a), num(lo), num(hi)])

    def add(self, line):
        ev = parse(line)
        if ev is None:
            return
        eid, sensor, t, v = ev
        if eid in self.seen:
            return
        self.seen.add(eid)
        start = EPOCH + ((t - EPOCH) // WINDOW) * WINDOW
        if self.maxts is not None and start + WINDOW <= self.maxts - LATENESS:
            self.late_rows.append([eid, sensor, iso(t), num(v)])
            return
        acc = self.open.setdefault((start, sensor), [0, Decimal(0), v, v])
        acc[0] += 1
        acc[1] += v
        acc[2] = min(acc[2], v)
        acc[3] = max(acc[3], v)
        if self.maxts is None or t > self.maxts:
            self.maxts = t
            wm = t - LATENESS
            self.emit([k for k in self.open if k[0] + WINDOW <= wm])


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: winagg.py STATE_DIR (BATCH.jsonl | --flush)")
    os.makedirs(sys.argv[1], exist_ok=True)
    agg = Agg(sys.argv[1])
    if sys.argv[2] == "--flush":
        agg.emit(list(agg.open))
    else:
        with open(sys.argv[2], encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    agg.add(line)
    agg.save()


if __name__ == "__main__":
    main()
PY
chmod +x /app/winagg.py
