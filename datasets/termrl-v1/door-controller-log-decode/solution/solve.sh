#!/bin/bash
# Reference: the ACX2 format as recovered from the three samples.
set -euo pipefail
cat > /app/acx2csv <<'PY'
#!/usr/bin/env python3
"""acx2csv FILE.acx: print an ACX2 access-controller export as the vendor viewer's CSV."""
import csv
import re
import sys
from datetime import datetime, timedelta

EPOCH = datetime(2000, 1, 1)
EVENTS = {"G": "granted", "D": "denied", "F": "forced", "H": "held"}
REASONS = {"1": "badge expired", "2": "wrong zone", "3": "PIN failed", "4": "unknown badge", "5": "outside schedule"}
QUOTED = r'"((?:[^"\\]|\\.)*)"'


def unquote(s):
    return re.sub(r"\\(.)", r"\1", s)


def main(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    offset = int(re.search(r"utc=([+-]\d+)", lines[0]).group(1))
    holders, doors = {}, []
    clock, last_badge = None, None
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["utc_time", "door", "badge", "holder", "event", "detail"])
    for line in lines[1:]:
        if not line or line.startswith(";"):
            continue
        if line.startswith("Z"):
            offset = int(line[1:])
        elif line.startswith("@"):
            clock = EPOCH + timedelta(seconds=int(line[1:], 16))
        elif line.startswith("E "):
            m = re.fullmatch(r"E ([0-9A-F]{8}) " + QUOTED, line)
            holders[int(m.group(1), 16)] = unquote(m.group(2))
        else:
            m = re.fullmatch(r"(\d+) ([GDFH])(?:\$(\d+)|" + QUOTED + r")(?: (.*))?", line)
            delta, kind, ref, name, rest = m.groups()
            clock += timedelta(seconds=int(delta))
            if name is not None:
                doors.append(unquote(name))
                door = doors[-1]
            else:
                door = doors[int(ref)]
            args = rest.split() if rest else []
            badge = holder = detail = ""
            if kind in "GD":
                b = last_badge if args[0] == "^" else int(args[0], 16)
                last_badge = b
                badge, holder = str(b), holders.get(b, "")
                if kind == "D":
                    detail = REASONS[args[1][1:]]
            elif kind == "H":
                detail = f"open {args[0][1:]}s"
            utc = clock - timedelta(minutes=offset)
            out.writerow([utc.strftime("%Y-%m-%dT%H:%M:%SZ"), door, badge, holder, EVENTS[kind], detail])


if __name__ == "__main__":
    main(sys.argv[1])
PY
chmod +x /app/acx2csv
