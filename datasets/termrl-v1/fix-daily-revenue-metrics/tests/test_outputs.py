"""daily_metrics.py on exports generated here, compared row by row with METRICS.md computed
independently (plain Python, zoneinfo)."""
import csv
import os
import random
import statistics
import subprocess
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

RNG = random.Random(os.urandom(8))
BERLIN = ZoneInfo("Europe/Berlin")
SCRIPT = "/app/analytics/daily_metrics.py"
COUNTRIES = ["DE", "AT", "CH", "FR", "NL"]


class Export:
    def __init__(self, first_day: date, days: int):
        self.first, self.days = first_day, days
        self.users, self.events, self.fx = [], [], []
        self.n = 0

    def user(self, uid, history):
        """history: [(country, valid_from, valid_to or None)]"""
        for country, a, b in history:
            self.users.append((uid, country, a.isoformat(), b.isoformat() if b else ""))

    def event(self, uid, ts: datetime, kind, amount=None, currency="EUR", copies=1):
        self.n += 1
        row = (f"ev{self.n:06d}{RNG.randrange(1000):03d}", uid, ts.isoformat(), kind,
               "" if kind == "view" else f"{amount:.2f}", "" if kind == "view" else currency)
        self.events += [row] * copies

    def write(self, tmp):
        paths = {k: tmp / f"{k}-{RNG.randrange(10**6)}.csv" for k in ("events", "users", "fx")}
        shuffled = self.events[:]
        RNG.shuffle(shuffled)
        for key, header, rows in (("events", "event_id,user_id,ts,type,amount,currency", shuffled),
                                  ("users", "user_id,country,valid_from,valid_to", self.users),
                                  ("fx", "date,currency,rate_to_eur", self.fx)):
            with open(paths[key], "w", newline="") as f:
                w = csv.writer(f)
                f.write(header + "\n")
                w.writerows(rows)
        return paths

    def expected(self):
        seen, rows = set(), {}
        rates = {}
        for d, cur, r in self.fx:
            rates.setdefault(cur, []).append((d, float(r)))
        for cur in rates:
            rates[cur].sort()
        for ev in self.events:
            if ev[0] in seen:
                continue
            seen.add(ev[0])
            eid, uid, ts, kind, amount, cur = ev
            local = datetime.fromisoformat(ts).astimezone(BERLIN).date().isoformat()
            country = next(c for u, c, a, b in self.users if u == uid and a <= local and (not b or local < b))
            key = (local, country)
            acc = rows.setdefault(key, {"active": set(), "buyers": set(), "revenue": 0.0, "orders": []})
            acc["active"].add(uid)
            if kind == "view":
                continue
            rate = 1.0 if cur == "EUR" else [r for d, r in rates[cur] if d <= local][-1]
            eur = float(amount) * rate
            if kind == "purchase":
                acc["buyers"].add(uid)
                acc["orders"].append(eur)
                acc["revenue"] += eur
            else:
                acc["revenue"] -= eur
        out = []
        for (d, c) in sorted(rows):
            a = rows[(d, c)]
            out.append({"date": d, "country": c, "active_users": len(a["active"]), "buyers": len(a["buyers"]),
                        "revenue_eur": a["revenue"], "conversion": len(a["buyers"]) / len(a["active"]),
                        "median_order_eur": statistics.median(a["orders"]) if a["orders"] else None})
        return out


def run(export, tmp_path):
    paths = export.write(tmp_path)
    out = tmp_path / f"daily-{RNG.randrange(10**6)}.csv"
    r = subprocess.run(["python3", SCRIPT, "--events", str(paths["events"]), "--users", str(paths["users"]),
                        "--fx", str(paths["fx"]), "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    with open(out, newline="") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == ["date", "country", "active_users", "buyers", "revenue_eur", "conversion",
                                     "median_order_eur"], reader.fieldnames
        return list(reader)


def compare(got, want):
    assert [(g["date"], g["country"]) for g in got] == [(w["date"], w["country"]) for w in want], \
        "the (date, country) rows or their order differ"
    for g, w in zip(got, want):
        where = f"{w['date']} {w['country']}"
        assert int(float(g["active_users"])) == w["active_users"], (where, "active_users", g, w)
        assert int(float(g["buyers"])) == w["buyers"], (where, "buyers", g, w)
        assert abs(float(g["revenue_eur"]) - w["revenue_eur"]) <= 0.0051, (where, "revenue_eur", g, w)
        assert abs(float(g["conversion"]) - w["conversion"]) <= 0.000051, (where, "conversion", g, w)
        if w["median_order_eur"] is None:
            assert g["median_order_eur"].strip() == "", (where, "median_order_eur", g)
        else:
            assert abs(float(g["median_order_eur"]) - w["median_order_eur"]) <= 0.0051, (where, "median", g, w)


def utc(y, m, d, hh, mm):
    return datetime(y, m, d, hh, mm, tzinfo=timezone.utc)


def random_export(first: date, days: int, n_users=30, n_events=500):
    ex = Export(first, days)
    start = first - timedelta(days=400)
    for i in range(n_users):
        uid = f"c{i:04d}{RNG.randrange(100)}"
        if RNG.random() < 0.35:
            move = first + timedelta(days=RNG.randint(0, days - 1))
            a, b = RNG.sample(COUNTRIES, 2)
            ex.user(uid, [(a, start, move), (b, move, None)])
        else:
            ex.user(uid, [(RNG.choice(COUNTRIES), start, None)])
    uids = sorted({u for u, *_ in ex.users})
    for cur, base in (("CHF", 1.05), ("USD", 0.92), ("GBP", 1.17)):
        ex.fx.append(((first - timedelta(days=3)).isoformat(), cur, f"{base:.4f}"))
        for k in range(days):
            if RNG.random() < 0.6:
                ex.fx.append(((first + timedelta(days=k)).isoformat(), cur, f"{base + RNG.uniform(-0.05, 0.05):.4f}"))
    t0 = datetime(first.year, first.month, first.day, tzinfo=timezone.utc) - timedelta(hours=2)
    for _ in range(n_events):
        ts = t0 + timedelta(minutes=RNG.randrange(days * 1440))
        if RNG.random() < 0.3:  # crowd the hours around local midnight
            local = ts.astimezone(BERLIN)
            ts = (local.replace(hour=RNG.choice([22, 23, 0, 1]), minute=RNG.randrange(60))).astimezone(timezone.utc)
        kind = RNG.choices(["view", "purchase", "refund"], [6, 3, 1])[0]
        ex.event(RNG.choice(uids), ts, kind, RNG.uniform(3, 300), RNG.choice(["EUR", "CHF", "USD", "GBP"]),
                 copies=2 if RNG.random() < 0.08 else 1)
    return ex


def test_local_dates_across_daylight_saving_changes(tmp_path):
    for first in (date(2026, 3, 27), date(2026, 10, 23)):  # the last Sundays of March and October 2026
        ex = Export(first, 4)
        ex.user("a", [("DE", date(2025, 1, 1), None)])
        ex.user("b", [("AT", date(2025, 1, 1), None)])
        ex.fx.append(("2026-01-01", "CHF", "1.0"))
        for day in range(4):
            d = first + timedelta(days=day)
            for hh, mm in ((21, 30), (22, 30), (23, 15)):
                ex.event(RNG.choice("ab"), utc(d.year, d.month, d.day, hh, mm), "purchase", RNG.uniform(10, 90))
        compare(run(ex, tmp_path), ex.expected())


def test_retried_uploads_refunds_and_buyers(tmp_path):
    ex = Export(date(2026, 5, 4), 1)
    for u in "pqrs":
        ex.user(u, [("FR", date(2025, 1, 1), None)])
    ex.fx.append(("2026-05-01", "USD", "0.9"))
    noon = utc(2026, 5, 4, 10, 0)
    ex.event("p", noon, "purchase", 100.0, copies=3)
    ex.event("p", noon, "purchase", 20.0)
    ex.event("q", noon, "refund", 30.0, "USD", copies=2)
    ex.event("q", noon, "view")
    ex.event("r", noon, "view", copies=2)
    ex.event("s", noon, "purchase", 50.0, "USD")
    want = ex.expected()
    assert want[0]["revenue_eur"] == pytest.approx(100 + 20 - 27 + 45) and want[0]["buyers"] == 2
    compare(run(ex, tmp_path), want)


def test_users_who_moved_country(tmp_path):
    ex = Export(date(2026, 6, 1), 6)
    ex.user("m", [("DE", date(2025, 1, 1), date(2026, 6, 3)), ("CH", date(2026, 6, 3), date(2026, 6, 5)),
                  ("AT", date(2026, 6, 5), None)])
    ex.user("n", [("CH", date(2025, 1, 1), None)])
    ex.fx.append(("2026-05-30", "CHF", "1.08"))
    for day in range(6):
        ex.event("m", utc(2026, 6, 1 + day, 9, 0), "purchase", 10.0 + day, "CHF")
        ex.event("n", utc(2026, 6, 1 + day, 9, 0), "view")
    ex.event("m", utc(2026, 6, 2, 22, 30), "purchase", 7.0)  # 00:30 on the 3rd in Berlin: already CH
    compare(run(ex, tmp_path), ex.expected())


def test_exchange_rate_as_of_the_latest_earlier_date(tmp_path):
    ex = Export(date(2026, 7, 1), 8)
    ex.user("f", [("NL", date(2025, 1, 1), None)])
    ex.fx += [("2026-06-28", "USD", "0.80"), ("2026-07-03", "USD", "0.95"), ("2026-07-06", "USD", "1.10"),
              ("2026-07-02", "GBP", "1.20")]
    for day in range(8):
        ex.event("f", utc(2026, 7, 1 + day, 12, 0), "purchase", 100.0, "USD")
        if day >= 1:
            ex.event("f", utc(2026, 7, 1 + day, 13, 0), "purchase", 10.0, "GBP")
    want = ex.expected()
    assert [round(w["revenue_eur"], 2) for w in want][:3] == [80.0, 92.0, 107.0]
    compare(run(ex, tmp_path), want)


@pytest.mark.parametrize("month", [3, 10])
def test_random_exports(tmp_path, month):
    ex = random_export(date(2026, month, RNG.randint(20, 24)), 9)
    compare(run(ex, tmp_path), ex.expected())
