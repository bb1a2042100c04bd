"""Expand recurring calendar events.

expand(start, freq, interval=1, count=None, until=None, weekdays=None) -> list[datetime.date]

* ``start``: the first occurrence (a ``datetime.date``); it is always included (if it is not
  after ``until``).
* ``freq``: "daily", "weekly" or "monthly"; ``interval`` >= 1 (every N days/weeks/months),
  otherwise ValueError.
* monthly: the k-th occurrence is ``start`` moved k*interval months forward, keeping the
  day-of-month of ``start``; when that month is shorter, the last day of that month is used
  instead (Jan 31 -> Feb 29/28 -> Mar 31 -> Apr 30 ...). The anchor is always the original
  day, not the previous (clamped) occurrence.
* weekly with ``weekdays`` (an iterable of ints, Monday=0 .. Sunday=6, in any order;
  duplicates are ignored): within each active week
  (weeks are Monday-based; the week containing ``start`` is active, then every ``interval``-th
  week after it) every listed weekday on or after ``start`` is an occurrence. Without
  ``weekdays``, weekly means every 7*interval days from start.
* Stops after ``count`` occurrences and/or when an occurrence would be after ``until``
  (``until`` itself is included). At least one of count/until must be given, else ValueError.
* Returns occurrences in increasing order.
"""
import calendar
import datetime as dt


def _add_months(d, months, day):
    month = d.month + months
    year = d.year + month // 12
    month = month % 12
    last = calendar.monthrange(year, month)[1]
    return dt.date(year, month, min(day, last))


def expand(start, freq, interval=1, count=None, until=None, weekdays=None):
    if interval < 1:
        raise ValueError("interval must be >= 1")
    if count is None and until is None:
        raise ValueError("count or until required")
    out = []

    def emit(d):
        if until is not None and d >= until:
            return False
        out.append(d)
        return count is None or len(out) < count

    if freq == "daily":
        d = start
        while emit(d):
            d += dt.timedelta(days=interval)
    elif freq == "monthly":
        d = start
        while emit(d):
            d = _add_months(d, interval, d.day)
    elif freq == "weekly" and not weekdays:
        d = start
        while emit(d):
            d += dt.timedelta(weeks=interval)
    elif freq == "weekly":
        week = start - dt.timedelta(days=start.weekday())
        while True:
            for wd in weekdays:
                d = week + dt.timedelta(days=wd)
                if d < start:
                    continue
                if not emit(d):
                    return out
            week += dt.timedelta(weeks=interval)
    else:
        raise ValueError(f"unknown freq {freq}")
    return out
