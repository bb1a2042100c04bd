"""backtest.py on sales files generated here, compared with the instruction's definitions computed
independently (plain Python)."""
import csv
import subprocess
from datetime import date, timedelta

import pytest

import math
import random
import sys
from datetime import date, timedelta


def generate(seed, n_series=14, days=150):
    rng = random.Random(seed)
    end = date(2026, 6, 30) - timedelta(days=rng.randrange(20))
    rows = []
    skus = rng.sample([f"{c}-{n}" for c in "ABK" for n in (1, 2, 3, 7, 10, 12, 25)], n_series)
    for i, sku in enumerate(skus):
        store = rng.choice(["S01", "S02", "S10", "S2"])
        start = end - timedelta(days=rng.randrange(30, days))
        level = rng.uniform(0.3, 12)
        week = [rng.uniform(0.4, 1.8) for _ in range(7)]
        constant = i == 0
        d = start
        first = True
        while d <= end:
            if constant:
                u = 3 if d.weekday() == 0 else 0
                if d > end - timedelta(days=30):
                    u = rng.randrange(0, 5)
            else:
                lam = level * week[d.weekday()]
                u = 0
                # Poisson by inversion
                p, c, x = math.exp(-lam), math.exp(-lam), rng.random()
                while x > c and u < 200:
                    u += 1
                    p *= lam / u
                    c += p
            if first:
                u = max(u, 1)
                first = False
            if u > 0:
                parts = rng.randint(1, min(3, u))
                cuts = sorted(rng.sample(range(1, u), parts - 1)) if parts > 1 else []
                prev = 0
                for c in cuts + [u]:
                    rows.append((store, sku, d.isoformat(), c - prev))
                    prev = c
                if rng.random() < 0.05:
                    rows.append((store, sku, d.isoformat(), -1))
            d += timedelta(days=1)
    # the last date of the file belongs to one series only
    rows.append(("S01", skus[1], end.isoformat(), 2))
    rng.shuffle(rows)
    return rows


def write(path, seed, **kw):
    with open(path, "w") as f:
        f.write("store,sku,date,units\n")
        for r in generate(seed, **kw):
            f.write(",".join(map(str, r)) + "\n")


def reference(path, H, K):
    sums = {}
    for r in csv.DictReader(open(path)):
        k = (r["store"], r["sku"])
        d = date.fromisoformat(r["date"])
        sums.setdefault(k, {})
        sums[k][d] = sums[k].get(d, 0) + int(r["units"])
    T = max(d for s in sums.values() for d in s)
    origins = [T - timedelta(days=H + 7 * j) for j in range(K)]
    out = []
    for (store, sku) in sorted(sums):
        s = sums[(store, sku)]
        start = min(s)
        if start > origins[-1] - timedelta(days=34):
            continue
        y = lambda d: s.get(d, 0)
        diffs = []
        d = start + timedelta(days=7)
        while d <= origins[-1]:
            diffs.append(abs(y(d) - y(d - timedelta(days=7))))
            d += timedelta(days=1)
        scale = sum(diffs) / len(diffs)
        ma_err, nv_err = [], []
        for o in origins:
            ma = sum(y(o - timedelta(days=i)) for i in range(28)) / 28
            for h in range(1, H + 1):
                d = o + timedelta(days=h)
                ma_err.append(abs(y(d) - ma))
                nv_err.append(abs(y(d) - y(d - timedelta(days=7 * -(-h // 7)))))
        for m, e in (("ma28", ma_err), ("naive7", nv_err)):
            mae = sum(e) / len(e)
            out.append((store, sku, m, mae, None if scale == 0 else mae / scale))
    return out


def run(tmp, seed, H, K, **kw):
    src, out = tmp / f"sales{seed}.csv", tmp / f"out{seed}.csv"
    write(src, seed, **kw)
    r = subprocess.run(["python3", "/app/backtest.py", str(src), "--horizon", str(H), "--origins", str(K), str(out)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return list(csv.reader(open(out))), reference(src, H, K)


def compare(got, exp):
    assert got[0] == ["store", "sku", "method", "mae", "mase"]
    assert [tuple(r[:3]) for r in got[1:]] == [e[:3] for e in exp], "rows (series kept, order) differ"
    for g, e in zip(got[1:], exp):
        assert abs(float(g[3]) - e[3]) < 1e-6, (g, e)
        if e[4] is None:
            assert g[4] == "", (g, e)
        else:
            assert g[4] != "" and abs(float(g[4]) - e[4]) < 1e-6, (g, e)


@pytest.mark.parametrize("seed,H,K", [(11, 7, 4), (12, 14, 3), (13, 10, 5)])
def test_matches_definition(tmp_path, seed, H, K):
    got, exp = run(tmp_path, seed, H, K)
    compare(got, exp)


def test_six_decimals_and_row_order(tmp_path):
    got, exp = run(tmp_path, 21, 7, 2)
    for r in got[1:]:
        assert len(r[3].split(".")[1]) == 6, r
        if r[4]:
            assert len(r[4].split(".")[1]) == 6, r
    keys = [tuple(r[:3]) for r in got[1:]]
    assert keys == sorted(keys)


def test_short_series_left_out(tmp_path):
    src, out = tmp_path / "s.csv", tmp_path / "o.csv"
    T = date(2026, 5, 31)
    o_last = T - timedelta(days=7 + 7)  # H=7, K=2
    lines = ["store,sku,date,units", f"S1,ok,{(o_last - timedelta(days=34)).isoformat()},4",
             f"S1,short,{(o_last - timedelta(days=33)).isoformat()},4", f"S1,ok,{T.isoformat()},1"]
    src.write_text("\n".join(lines) + "\n")
    r = subprocess.run(["python3", "/app/backtest.py", str(src), "--horizon", "7", "--origins", "2", str(out)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    got = list(csv.reader(open(out)))
    assert [x[:3] for x in got[1:]] == [["S1", "ok", "ma28"], ["S1", "ok", "naive7"]]
    compare(got, reference(src, 7, 2))


def test_constant_weekly_pattern_has_empty_mase(tmp_path):
    src, out = tmp_path / "s.csv", tmp_path / "o.csv"
    T = date(2026, 5, 31)
    lines = ["store,sku,date,units"]
    d = T - timedelta(days=90)
    while d <= T - timedelta(days=14):
        if d.weekday() == 2:
            lines += [f"S9,w,{d.isoformat()},2", f"S9,w,{d.isoformat()},3"]
        d += timedelta(days=1)
    lines.append(f"S9,w,{(T - timedelta(days=3)).isoformat()},9")
    lines.append(f"S9,w,{T.isoformat()},-1")
    src.write_text("\n".join(lines) + "\n")
    r = subprocess.run(["python3", "/app/backtest.py", str(src), "--horizon", "7", "--origins", "2", str(out)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    got = list(csv.reader(open(out)))
    assert [x[4] for x in got[1:]] == ["", ""]
    compare(got, reference(src, 7, 2))
