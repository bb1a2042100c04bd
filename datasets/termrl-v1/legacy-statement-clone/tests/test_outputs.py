import csv
import random
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, "/tests")
import legacy  # noqa: E402  (the lost program, only available to the tests)

WORDS = ["invoice", "Refund", "fee", "Transfer", "card", "payment", "lease", "May", "Q3", "2024", "#1187", "net",
         "consulting", "Supplies", "x", "re-issue", "cheque", "a/b", "Ünïcode", "licence"]
NAMES = ["acme", "Beta Corp", "zephyr", "Kilo", "kappa", "ops", "North", "delta-3", "Émile", "L&M", "aa", "AB"]


def stmt(path):
    r = subprocess.run([sys.executable, "/app/stmt.py", str(path)], capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    return r.stdout.decode("utf-8")


def amount(rng):
    r = rng.random()
    if r < 0.08:
        return rng.choice(["0", "0.00", "+0"])
    mag = rng.choice([1, 100, 10000, 1000000, 50000000])
    v = rng.randrange(1, mag * 100 + 1)
    whole, cents = divmod(v, 100)
    text = rng.choice([f"{whole}.{cents:02d}", f"{whole}.{cents:02d}", f"{whole}.{cents // 10}", str(whole)])
    return rng.choice(["-", "-", "", "+"]) + text


def make_csv(path, rng, short=False, width=None):
    accounts = rng.sample(NAMES, rng.randrange(1, 6))
    accounts = [a for i, a in enumerate(accounts) if a.lower() not in {b.lower() for b in accounts[:i]}]
    rows = []
    year = rng.randrange(1999, 2031)
    for _ in range(rng.randrange(1, 30)):
        desc = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 7)))
        if rng.random() < 0.3:
            desc = desc.replace(" ", ", ", 1)
        if short:
            desc = desc[:rng.randrange(1, 11)].strip() or "x"
        if width:
            desc = desc[:width].strip() or "y"
        day = f"{year}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
        rows.append([day, rng.choice(accounts), desc, amount(rng)])
    if rng.random() < 0.5:
        rows.append(list(rows[0][:2]) + ["same day", amount(rng)])
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["date", "account", "description", "amount"])
        w.writerows(rows)


def test_examples_reproduced():
    for csvf in sorted(Path("/app/examples").glob("*.csv")):
        assert stmt(csvf) == csvf.with_suffix(".txt").read_text(encoding="utf-8"), csvf.name


@pytest.mark.parametrize("seed", range(101, 109))
def test_hidden_ledgers(tmp_path, seed):
    p = tmp_path / "in.csv"
    make_csv(p, random.Random(seed))
    assert stmt(p) == legacy.render(p)


@pytest.mark.parametrize("seed,width", [(201, None), (202, 14), (203, 19)])
def test_hidden_narrow_descriptions(tmp_path, seed, width):
    p = tmp_path / "in.csv"
    make_csv(p, random.Random(seed), short=width is None, width=width)
    assert stmt(p) == legacy.render(p)


def test_hidden_account_order_and_ties(tmp_path):
    p = tmp_path / "in.csv"
    rows = [["2020-03-01", "beta", "b1", "5"], ["2020-03-01", "Alpha", "a2", "-5"], ["2020-02-01", "alpha2", "z", "1"],
            ["2020-03-01", "Alpha", "a1", "7.5"], ["2020-01-09", "Gamma", "g", "-0.5"], ["2020-03-01", "Alpha", "a0", "0"]]
    with open(p, "w", newline="") as f:
        csv.writer(f).writerows([["date", "account", "description", "amount"]] + rows)
    out = stmt(p)
    assert out == legacy.render(p)
    assert out.index("== ALPHA ==") < out.index("== ALPHA2 ==") < out.index("== BETA ==") < out.index("== GAMMA ==")
