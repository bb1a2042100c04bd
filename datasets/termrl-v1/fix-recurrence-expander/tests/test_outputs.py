import calendar
import datetime as dt
import random
import sys

import pytest

sys.path.insert(0, "/app")
from recur import expand  # noqa: E402

D = dt.date


def ref(start, freq, interval=1, count=None, until=None, weekdays=None):
    out = []
    horizon = until if until is not None else start + dt.timedelta(days=4000)
    if freq == "monthly":
        k = 0
        while True:
            idx = start.month - 1 + k * interval
            y, m = start.year + idx // 12, idx % 12 + 1
            d = D(y, m, min(start.day, calendar.monthrange(y, m)[1]))
            if d > horizon:
                break
            out.append(d)
            k += 1
            if count and len(out) >= count:
                break
        return out
    d = start
    monday = start - dt.timedelta(days=start.weekday())
    while d <= horizon and (not count or len(out) < count):
        if freq == "daily":
            ok = (d - start).days % interval == 0
        elif not weekdays:
            ok = (d - start).days % (7 * interval) == 0
        else:
            ok = d.weekday() in set(weekdays) and ((d - monday).days // 7) % interval == 0
        if ok:
            out.append(d)
        d += dt.timedelta(days=1)
    return out


def test_monthly_end_of_month():
    assert expand(D(2024, 1, 31), "monthly", count=5) == [D(2024, 1, 31), D(2024, 2, 29), D(2024, 3, 31),
                                                          D(2024, 4, 30), D(2024, 5, 31)]


def test_monthly_across_year():
    assert expand(D(2023, 11, 15), "monthly", count=4) == [D(2023, 11, 15), D(2023, 12, 15), D(2024, 1, 15),
                                                           D(2024, 2, 15)]
    assert expand(D(2023, 10, 30), "monthly", interval=2, count=3) == [D(2023, 10, 30), D(2023, 12, 30),
                                                                       D(2024, 2, 29)]


def test_until_inclusive():
    assert expand(D(2024, 3, 1), "daily", interval=2, until=D(2024, 3, 7)) == [D(2024, 3, 1), D(2024, 3, 3),
                                                                               D(2024, 3, 5), D(2024, 3, 7)]
    assert expand(D(2024, 3, 1), "daily", until=D(2024, 3, 1)) == [D(2024, 3, 1)]
    assert expand(D(2024, 3, 2), "daily", until=D(2024, 3, 1)) == []


def test_weekly_weekdays_order():
    # start on a Wednesday; Mon/Fri listed in reverse order; every other week
    got = expand(D(2024, 5, 8), "weekly", interval=2, count=5, weekdays=[4, 0, 4])
    assert got == [D(2024, 5, 10), D(2024, 5, 20), D(2024, 5, 24), D(2024, 6, 3), D(2024, 6, 7)]


def test_errors():
    with pytest.raises(ValueError):
        expand(D(2024, 1, 1), "daily", interval=0, count=3)
    with pytest.raises(ValueError):
        expand(D(2024, 1, 1), "daily")
    with pytest.raises(ValueError):
        expand(D(2024, 1, 1), "yearly", count=2)


def test_random_against_reference():
    rng = random.Random(123)
    for _ in range(300):
        start = D(rng.randint(2020, 2026), rng.randint(1, 12), rng.randint(1, 28)) + dt.timedelta(days=rng.randint(0, 3))
        freq = rng.choice(["daily", "weekly", "monthly"])
        interval = rng.randint(1, 4)
        count = rng.choice([None, rng.randint(1, 30)])
        until = start + dt.timedelta(days=rng.randint(-3, 500)) if count is None or rng.random() < 0.5 else None
        wds = None
        if freq == "weekly" and rng.random() < 0.6:
            wds = rng.sample(range(7), rng.randint(1, 4))
        if freq == "monthly" and rng.random() < 0.5:
            y, m = start.year, start.month
            start = D(y, m, calendar.monthrange(y, m)[1] - rng.randint(0, 2))
        want = ref(start, freq, interval, count, until, wds)
        assert expand(start, freq, interval=interval, count=count, until=until, weekdays=wds) == want, \
            (start, freq, interval, count, until, wds)
