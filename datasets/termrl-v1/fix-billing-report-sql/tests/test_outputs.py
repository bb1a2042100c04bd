"""/app/report/run_report.sh on billing databases generated here (offsets with half and quarter hours,
invoices near local midnight, NULL discounts, half-cent roundings, several payments per invoice, tied
timestamps and revenues, accounts without invoices, NULL and empty countries, NULL referrers); every CSV is
compared with the definitions of REPORT.md computed in Python."""
import csv
import os
import random
import sqlite3
import subprocess
from collections import defaultdict
from datetime import datetime, timedelta
from pathlib import Path

import pytest

RUNNER = os.environ.get("REPORT_RUNNER", "/app/report/run_report.sh")
SCHEMA = (Path(__file__).parent / "schema.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
OFFSETS = [-570, -480, -300, -210, 0, 60, 330, 345, 525, 585]


def net(amount, disc):
    return (amount * (100 - (disc or 0)) + 50) // 100


class Billing:
    def __init__(self, path, n_acc=70, n_inv=500):
        r = RNG
        self.acc, self.inv, self.pay = {}, {}, defaultdict(list)
        ids = r.sample(range(1, 500), n_acc)
        for a in ids:
            self.acc[a] = dict(name=r.choice([f"Acme {a}", f'Bo "Best", {a}', f"Ünal {a}"]),
                               country=r.choice(["DE", "IN", "US", "NP", "BR", None, "", "DE", "IN"]),
                               tz=r.choice(OFFSETS), ref=r.choice([None, None, None, r.choice(ids)]))
        active = r.sample(ids, n_acc - 8)            # eight accounts have no invoices
        base = datetime(2024, 5, 1)
        stamps = []
        for i in range(1, n_inv + 1):
            a = r.choice(active)
            if stamps and r.random() < 0.15:          # same issued_at as an earlier invoice (ties)
                t = r.choice(stamps)
                a = r.choice([a, t[1]])
                ts = t[0]
            else:
                tz = self.acc[a]["tz"]
                local_midnight = base + timedelta(days=r.randint(0, 20))
                ts = local_midnight - timedelta(minutes=tz) + timedelta(minutes=r.choice([-40, -10, -1, 0, 1, 10, 40, 300, 700]))
                ts = ts.strftime("%Y-%m-%d %H:%M:%S")
            stamps.append((ts, a))
            amount = r.choice([r.randint(1, 99999), 150, 50, 1001, 333, 999, 2050])
            disc = r.choice([None, None, 0, 5, 10, 15, 33, 50, 100])
            status = r.choice(["open", "paid", "paid", "paid", "void"])
            self.inv[i] = dict(acc=a, ts=ts, amount=amount, disc=disc, status=status)
            for _ in range(r.choice([0, 1, 1, 2, 3])):
                self.pay[i].append(r.randint(1, 30000))
        # two accounts per country with exactly equal paid revenue (rank ties)
        by_c = defaultdict(list)
        for a in active:
            by_c[self.acc[a]["country"] or "??"].append(a)
        nid = n_inv + 1
        for c, members in by_c.items():
            if len(members) >= 4:
                x, y = r.sample(members, 2)
                for _ in range(2):
                    amt = r.randint(10 ** 6, 2 * 10 ** 6)
                    for who in (x, y):
                        self.inv[nid] = dict(acc=who, ts="2024-05-09 12:00:00", amount=amt, disc=None, status="paid")
                        nid += 1
                # the tie must involve each account's whole revenue: move their other paid invoices to open
                for k, v in self.inv.items():
                    if v["acc"] in (x, y) and v["status"] == "paid" and v["ts"] != "2024-05-09 12:00:00":
                        v["status"] = "open"
        con = sqlite3.connect(path)
        con.executescript(SCHEMA)
        for a, v in self.acc.items():
            con.execute("INSERT INTO accounts VALUES (?,?,?,?,?)", (a, v["name"], v["country"], v["tz"], v["ref"]))
        for i, v in self.inv.items():
            con.execute("INSERT INTO invoices VALUES (?,?,?,?,?,?)", (i, v["acc"], v["ts"], v["amount"], v["disc"], v["status"]))
            for amt in self.pay[i]:
                con.execute("INSERT INTO payments (invoice_id, paid_at, amount_cents) VALUES (?, '2024-06-01 00:00:00', ?)", (i, amt))
        con.commit()
        con.close()

    def daily_revenue(self):
        days = defaultdict(lambda: [0, 0])
        for v in self.inv.values():
            if v["status"] == "paid":
                tz = self.acc[v["acc"]]["tz"]
                d = (datetime.strptime(v["ts"], "%Y-%m-%d %H:%M:%S") + timedelta(minutes=tz)).strftime("%Y-%m-%d")
                days[d][0] += 1
                days[d][1] += net(v["amount"], v["disc"])
        return [["day", "invoices", "net_cents"]] + [[d, str(n), str(s)] for d, (n, s) in sorted(days.items())]

    def balances(self):
        rows = []
        for a, acc in self.acc.items():
            inv = [i for i, v in self.inv.items() if v["acc"] == a and v["status"] != "void"]
            invoiced = sum(net(self.inv[i]["amount"], self.inv[i]["disc"]) for i in inv)
            paid = sum(sum(self.pay[i]) for i in inv)
            rows.append((-(invoiced - paid), a, [str(a), acc["name"], str(invoiced), str(paid), str(invoiced - paid)]))
        return [["account_id", "name", "invoiced_cents", "paid_cents", "balance_cents"]] + [r[2] for r in sorted(rows)]

    def running_totals(self):
        out = []
        for a in sorted(self.acc):
            inv = sorted((v["ts"], i) for i, v in self.inv.items() if v["acc"] == a and v["status"] != "void")
            run = 0
            for ts, i in inv:
                n = net(self.inv[i]["amount"], self.inv[i]["disc"])
                run += n
                out.append([str(a), str(i), ts, str(n), str(run)])
        return [["account_id", "invoice_id", "issued_at", "net_cents", "running_cents"]] + out

    def top_by_country(self):
        rev = defaultdict(int)
        for v in self.inv.values():
            if v["status"] == "paid":
                rev[v["acc"]] += net(v["amount"], v["disc"])
        by_c = defaultdict(list)
        for a, s in rev.items():
            by_c[self.acc[a]["country"] or "??"].append((s, a))
        out = []
        for c in sorted(by_c):
            levels = sorted({s for s, _ in by_c[c]}, reverse=True)
            rank = {s: k + 1 for k, s in enumerate(levels)}
            for s, a in sorted(by_c[c], key=lambda t: (rank[t[0]], t[1])):
                if rank[s] <= 3:
                    out.append([c, str(a), str(s), str(rank[s])])
        return [["country", "account_id", "revenue_cents", "rank"]] + out

    def never_referred(self):
        refs = {v["ref"] for v in self.acc.values() if v["ref"] is not None}
        return [["account_id", "name"]] + [[str(a), self.acc[a]["name"]] for a in sorted(self.acc) if a not in refs]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    d = tmp_path_factory.mktemp("billing")
    db = d / "billing.db"
    b = Billing(db)
    before = db.read_bytes()
    p = subprocess.run(["bash", RUNNER, str(db), str(d / "out")], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, f"run_report.sh failed: {p.stderr[-800:]}"
    assert db.read_bytes() == before, "the report modified the database"
    return b, d / "out"


def read(out, name):
    f = out / f"{name}.csv"
    assert f.is_file(), f"{name}.csv was not written"
    with f.open(newline="") as fh:
        return list(csv.reader(fh))


def compare(got, want, name):
    assert got, f"{name}.csv is empty"
    assert got[0] == want[0], f"{name}: header {got[0]} != {want[0]}"
    assert len(got) == len(want), f"{name}: {len(got) - 1} rows, expected {len(want) - 1} (seed {SEED})"
    for k, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"{name} row {k}: {g} != {w} (seed {SEED})"


@pytest.mark.parametrize("name", ["daily_revenue", "balances", "running_totals", "top_by_country", "never_referred"])
def test_report_file(report, name):
    b, out = report
    compare(read(out, name), getattr(b, name)(), name)


def test_report_on_empty_tables(tmp_path):
    db = tmp_path / "empty.db"
    con = sqlite3.connect(db)
    con.executescript(SCHEMA)
    con.execute("INSERT INTO accounts VALUES (1, 'Solo', NULL, 0, NULL)")
    con.commit()
    con.close()
    p = subprocess.run(["bash", RUNNER, str(db), str(tmp_path / "out")], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr[-500:]
    assert read(tmp_path / "out", "balances")[1:] == [["1", "Solo", "0", "0", "0"]]
    assert read(tmp_path / "out", "never_referred")[1:] == [["1", "Solo"]]
    assert len(read(tmp_path / "out", "daily_revenue")) <= 1
