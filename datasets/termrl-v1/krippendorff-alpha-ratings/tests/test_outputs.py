import csv
import json
import subprocess

import numpy as np
import pytest


def gen(seed, units=120, coders=5, scale=(1, 2, 3, 4, 5), missing=0.3, agree=0.7, dups=0.05, singles=5):
    rng = np.random.default_rng(seed)
    rows = []
    for u in range(units):
        truth = rng.choice(scale)
        for c in range(coders):
            if rng.random() < missing:
                if rng.random() < 0.5:
                    rows.append((f"U{u:04d}", f"coder{c}", ""))
                continue
            v = truth if rng.random() < agree else rng.choice(scale)
            rows.append((f"U{u:04d}", f"coder{c}", v))
            if rng.random() < dups:  # coder changed their mind: an earlier, different rating
                rows.insert(len(rows) - 1, (f"U{u:04d}", f"coder{c}", rng.choice(scale)))
    for s in range(singles):
        rows.append((f"S{s}", "coder0", rng.choice(scale)))
    order = rng.permutation(len(rows))
    # keep each coder's ratings of a unit in their original relative order (last one counts)
    keyed = {}
    for i in order:
        keyed.setdefault((rows[i][0], rows[i][1]), []).append(i)
    out, seen = [], {}
    for i in order:
        k = (rows[i][0], rows[i][1])
        j = seen.get(k, 0)
        out.append(rows[sorted(keyed[k])[j]])
        seen[k] = j + 1
    return out


def fmtv(v):
    if v == "":
        return ""
    v = float(v)
    return str(int(v)) if v.is_integer() else repr(v)


def reference(rows):
    last = {}
    for u, c, v in rows:
        last[(u, c)] = None if v == "" else float(v)
    per_unit = {}
    for (u, _), v in last.items():
        if v is not None:
            per_unit.setdefault(u, []).append(v)
    values = sorted({v for vals in per_unit.values() if len(vals) > 1 for v in vals})
    pos = {v: i for i, v in enumerate(values)}
    V = len(values)
    O = np.zeros((V, V))
    used = 0
    for vals in per_unit.values():
        if len(vals) < 2:
            continue
        used += 1
        cnt = np.zeros(V)
        for v in vals:
            cnt[pos[v]] += 1
        O += (np.outer(cnt, cnt) - np.diag(cnt)) / (len(vals) - 1)
    nc = O.sum(axis=1)
    n = nc.sum()
    x = np.array(values)
    cum = np.cumsum(nc)
    D = {
        "nominal": 1.0 - np.eye(V),
        "interval": (x[:, None] - x[None, :]) ** 2,
        "ratio": np.where(x[:, None] + x[None, :] == 0, 0.0,
                          ((x[:, None] - x[None, :]) / np.where(x[:, None] + x[None, :] == 0, 1, x[:, None] + x[None, :])) ** 2),
    }
    ordm = np.zeros((V, V))
    for a in range(V):
        for b in range(V):
            lo, hi = min(a, b), max(a, b)
            s = cum[hi] - (cum[lo - 1] if lo > 0 else 0.0)
            ordm[a, b] = (s - (nc[a] + nc[b]) / 2) ** 2
    D["ordinal"] = ordm
    out = {"units_used": used, "pairable_values": int(round(n))}
    for k, d in D.items():
        de = float(np.outer(nc, nc).ravel() @ d.ravel())
        out[k] = None if de == 0 or n <= 1 else 1.0 - (n - 1) * float(O.ravel() @ d.ravel()) / de
    return out


def run(tmp, rows, header=("unit", "coder", "value")):
    order = [("unit", "coder", "value").index(h) for h in header]
    with open(tmp / "ratings.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            rr = (r[0], r[1], fmtv(r[2]))
            w.writerow([rr[i] for i in order])
    p = subprocess.run(["python3", "/app/kalpha.py", str(tmp / "ratings.csv"), str(tmp / "alpha.json")],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads((tmp / "alpha.json").read_text())


def check(got, want):
    assert got["units_used"] == want["units_used"]
    assert got["pairable_values"] == want["pairable_values"]
    for k in ("nominal", "ordinal", "interval", "ratio"):
        if want[k] is None:
            assert got[k] is None, k
        else:
            assert got[k] is not None and abs(got[k] - want[k]) <= 1e-9, (k, got[k], want[k])


def test_published_example(tmp_path):
    data = ["1 2 3 3 2 1 4 1 2 . . .", "1 2 3 3 2 2 4 1 2 5 . 3", ". 3 3 3 2 3 4 2 2 5 1 .",
            "1 2 3 3 2 4 4 1 2 5 1 ."]
    rows = [(f"u{u}", f"c{c}", "" if v == "." else int(v)) for c, line in enumerate(data)
            for u, v in enumerate(line.split())]
    got = run(tmp_path, rows)
    assert abs(got["nominal"] - 0.743421052631579) <= 1e-9
    assert abs(got["interval"] - 0.8491071428571428) <= 1e-9
    check(got, reference(rows))


def test_five_point_scale(tmp_path):
    rows = gen(1)
    check(run(tmp_path, rows), reference(rows))


def test_repeated_ratings_last_counts(tmp_path):
    rows = gen(2, units=80, dups=0.3)
    check(run(tmp_path, rows), reference(rows))


def test_uneven_scale_with_zero(tmp_path):
    rows = gen(3, units=150, coders=7, scale=(0, 0.5, 1, 2.5, 4, 10), missing=0.45, agree=0.6)
    check(run(tmp_path, rows, header=("value", "unit", "coder")), reference(rows))


def test_perfect_and_degenerate(tmp_path):
    rows = [(f"u{u}", f"c{c}", u % 3 + 1) for u in range(12) for c in range(3)]
    want = reference(rows)
    assert want["nominal"] == 1.0
    check(run(tmp_path, rows), want)
    same = [(f"u{u}", f"c{c}", 4) for u in range(6) for c in range(2)] + [("lonely", "c0", 2)]
    want = reference(same)
    assert want["nominal"] is None
    check(run(tmp_path, same), want)


def test_many_coders_sparse(tmp_path):
    rows = gen(4, units=400, coders=12, missing=0.75, agree=0.5, scale=tuple(range(1, 11)), singles=30)
    check(run(tmp_path, rows), reference(rows))
