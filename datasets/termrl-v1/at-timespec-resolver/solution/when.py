#!/usr/bin/env python3
"""Resolve an at(1)-style time specification against a given 'now'."""
import calendar
import re
import sys
from datetime import date, datetime, timedelta

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
UNITS = {"minute", "hour", "day", "week", "month", "year"}


class Bad(Exception):
    pass


def lookup(word, names):
    for i, n in enumerate(names):
        if word == n or word == n[:3]:
            return i
    return None


def tokens(spec):
    s = spec.lower()
    s = re.sub(r"\+", " + ", s)
    s = re.sub(r"(\d)(am|pm)\b", r"\1 \2", s)
    return s.split()


def parse_time(t):
    if not t:
        raise Bad("missing time")
    w = t.pop(0)
    named = {"noon": (12, 0), "midnight": (0, 0), "teatime": (16, 0)}
    if w in named:
        return named[w]
    m = re.fullmatch(r"(\d{1,2}):(\d{2})|(\d{4})|(\d{1,2})", w)
    if not m:
        raise Bad(f"bad time {w}")
    if m.group(3):
        h, mi = int(w[:2]), int(w[2:])
    elif m.group(4):
        h, mi = int(m.group(4)), 0
    else:
        h, mi = int(m.group(1)), int(m.group(2))
    if t and t[0] in ("am", "pm") and not m.group(3):
        ap = t.pop(0)
        if not 1 <= h <= 12 or mi > 59:
            raise Bad("bad 12-hour time")
        h = h % 12 + (12 if ap == "pm" else 0)
    elif m.group(4):
        raise Bad("hour without am/pm")
    if h > 23 or mi > 59:
        raise Bad("bad time")
    return h, mi


def mkdate(y, mo, d):
    try:
        return date(y, mo, d)
    except ValueError:
        raise Bad("no such date")


def year(s):
    if re.fullmatch(r"\d{2}", s):
        return 2000 + int(s)
    if re.fullmatch(r"\d{4}", s):
        return int(s)
    raise Bad(f"bad year {s}")


def add_months(dt, n):
    y, m = divmod(dt.month - 1 + n, 12)
    y += dt.year
    d = min(dt.day, calendar.monthrange(y, m + 1)[1])
    return dt.replace(year=y, month=m + 1, day=d)


def resolve(spec, now):
    t = tokens(spec)
    if t and t[0] == "now":
        t.pop(0)
        base, relative_ok = now, True
    else:
        relative_ok = False
        h, mi = parse_time(t)
        today = now.date()
        at = lambda d: datetime(d.year, d.month, d.day, h, mi)
        w = t[0] if t else None
        if w is None or w in ("+", "next"):
            base = at(today) if at(today) > now else at(today + timedelta(days=1))
        else:
            t.pop(0)
            if w == "today":
                base = at(today)
            elif w == "tomorrow":
                base = at(today + timedelta(days=1))
            elif lookup(w, DAYS) is not None:
                wd, d = lookup(w, DAYS), today
                while d.weekday() != wd or at(d) <= now:
                    d += timedelta(days=1)
                base = at(d)
            elif lookup(w, MONTHS) is not None:
                if not t or not re.fullmatch(r"\d{1,2},?", t[0]):
                    raise Bad("month needs a day")
                day = int(t.pop(0).rstrip(","))
                mo = lookup(w, MONTHS) + 1
                if t and re.fullmatch(r"\d{2}|\d{4}", t[0]):
                    base = at(mkdate(year(t.pop(0)), mo, day))
                else:
                    try:
                        base = at(date(today.year, mo, day))
                    except ValueError:
                        base = None
                    if base is None or base <= now:
                        base = at(mkdate(today.year + 1, mo, day))
            elif re.fullmatch(r"\d{1,2}/\d{1,2}/(\d{2}|\d{4})", w):
                mo, d, y = w.split("/")
                base = at(mkdate(year(y), int(mo), int(d)))
            elif re.fullmatch(r"\d{1,2}\.\d{1,2}\.(\d{2}|\d{4})", w):
                d, mo, y = w.split(".")
                base = at(mkdate(year(y), int(mo), int(d)))
            elif re.fullmatch(r"\d{4}-\d{2}-\d{2}", w):
                y, mo, d = w.split("-")
                base = at(mkdate(int(y), int(mo), int(d)))
            else:
                raise Bad(f"bad date {w}")
    if t:
        w = t.pop(0)
        if w == "+":
            if not t or not re.fullmatch(r"\d+", t[0]) or int(t[0]) < 1:
                raise Bad("bad increment")
            n = int(t.pop(0))
        elif w == "next":
            n = 1
        else:
            raise Bad(f"unexpected {w}")
        if not t:
            raise Bad("missing unit")
        u = t.pop(0)
        u = u[:-1] if u.endswith("s") and u[:-1] in UNITS else u
        if u not in UNITS:
            raise Bad(f"bad unit {u}")
        if u in ("minute", "hour", "day", "week"):
            base += timedelta(**{u + "s": n})
        else:
            base = add_months(base, n * (12 if u == "year" else 1))
    if t:
        raise Bad(f"unexpected {t[0]}")
    if not relative_ok and base <= now:
        raise Bad("time in the past")
    return base


def main(argv):
    if len(argv) != 4 or argv[2] != "--now":
        print("usage: when 'SPEC' --now 'YYYY-MM-DD HH:MM'", file=sys.stderr)
        return 2
    try:
        now = datetime.strptime(argv[3], "%Y-%m-%d %H:%M")
        print(resolve(argv[1], now).strftime("%Y-%m-%d %H:%M"))
    except (Bad, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
