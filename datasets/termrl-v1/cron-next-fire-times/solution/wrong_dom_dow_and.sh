#!/bin/bash
# Requires BOTH day-of-month and day-of-week to match when both are restricted.
set -euo pipefail
cat > /app/cronnext.py <<'PY'
import datetime as dt
import re
import sys

MACROS = {"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
          "@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *"}
MONTHS = {m: i + 1 for i, m in enumerate("JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split())}
DAYS = {d: i for i, d in enumerate("SUN MON TUE WED THU FRI SAT".split())}


class Bad(Exception):
    pass


def value(tok, lo, hi, names):
    t = tok.upper()
    if names and t in names:
        return names[t]
    if not re.fullmatch(r"\d+", tok):
        raise Bad(f"bad value {tok!r}")
    v = int(tok)
    if not lo <= v <= hi:
        raise Bad(f"value {v} out of range")
    return v


def field(text, lo, hi, names=None):
    out = set()
    for item in text.split(","):
        if not item:
            raise Bad("empty list item")
        step = 1
        if "/" in item:
            item, s = item.split("/", 1)
            if not re.fullmatch(r"\d+", s) or int(s) < 1:
                raise Bad("bad step")
            step = int(s)
            if item != "*" and "-" not in item:
                a = value(item, lo, hi, names)
                out.update(range(a, hi + 1, step))
                continue
        if item == "*":
            a, b = lo, hi
        elif "-" in item:
            x, y = item.split("-", 1)
            a, b = value(x, lo, hi, names), value(y, lo, hi, names)
            if a > b:
                raise Bad("reversed range")
        else:
            a = b = value(item, lo, hi, names)
        out.update(range(a, b + 1, step))
    return out


def parse(expr):
    expr = expr.strip()
    if expr.startswith("@"):
        if expr.lower() not in MACROS:
            raise Bad("unknown macro")
        expr = MACROS[expr.lower()]
    parts = expr.split()
    if len(parts) != 5:
        raise Bad("need 5 fields")
    mi = field(parts[0], 0, 59)
    hr = field(parts[1], 0, 23)
    dom = field(parts[2], 1, 31)
    mon = field(parts[3], 1, 12, MONTHS)
    dow = field(parts[4], 0, 7, DAYS)
    if 7 in dow:
        dow = (dow - {7}) | {0}
    return mi, hr, dom, mon, dow, parts[2] != "*", parts[4] != "*"


def day_ok(d, spec):
    mi, hr, dom, mon, dow, rdom, rdow = spec
    if d.month not in mon:
        return False
    cdow = (d.weekday() + 1) % 7
    if rdom and rdow:
        return d.day in dom and cdow in dow
    if rdom:
        return d.day in dom
    if rdow:
        return cdow in dow
    return True


def main(argv):
    if len(argv) != 3:
        raise Bad("usage: cronnext.py EXPR 'YYYY-MM-DD HH:MM' N")
    spec = parse(argv[0])
    try:
        start = dt.datetime.strptime(argv[1], "%Y-%m-%d %H:%M")
    except ValueError:
        raise Bad("bad start time")
    if not re.fullmatch(r"\d+", argv[2]) or not 1 <= int(argv[2]) <= 1000:
        raise Bad("bad N")
    n = int(argv[2])
    mins, hrs = sorted(spec[0]), sorted(spec[1])
    found = []
    day = start.date()
    end = day + dt.timedelta(days=3653)
    while day <= end and len(found) < n:
        if day_ok(day, spec):
            for h in hrs:
                for m in mins:
                    t = dt.datetime(day.year, day.month, day.day, h, m)
                    if t > start and t <= start + dt.timedelta(days=3653):
                        found.append(t)
                        if len(found) == n:
                            break
                if len(found) == n:
                    break
        day += dt.timedelta(days=1)
    for t in found:
        print(t.strftime("%Y-%m-%d %H:%M"))
    return 0 if len(found) == n else 3


try:
    sys.exit(main(sys.argv[1:]))
except Bad as e:
    print(f"error: {e}", file=sys.stderr)
    sys.exit(2)
PY
