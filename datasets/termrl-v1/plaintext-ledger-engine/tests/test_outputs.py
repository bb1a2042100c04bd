import json
import random
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import ledger_ref  # noqa: E402

ACCS = ["Assets:Bank:Checking", "Assets:Bank:Savings", "Assets:Cash", "Assets:Broker:Fx", "Liabilities:Card",
        "Equity:Opening", "Income:Salary", "Income:Interest", "Expenses:Food", "Expenses:Rent", "Expenses:Travel-Intl"]
CURS = ["USD", "USD", "USD", "EUR", "GBP", "JPY"]


def amt(rng):
    return f"{rng.choice(['', '-'])}{rng.randint(0, 3000)}.{rng.randint(0, 99):02d}"


def gen(seed):
    rng = random.Random(seed)
    blocks = []
    opened = rng.sample(ACCS, len(ACCS) - 2)
    for a in opened:
        blocks.append([f"2024-0{rng.randint(1, 3)}-{rng.randint(1, 28):02d} open {a}"])
    if rng.random() < 0.5:
        blocks.append([f"2024-05-01 open {opened[0]}"])
    for _ in range(rng.randint(25, 45)):
        d = f"2024-{rng.randint(1, 6):02d}-{rng.randint(1, 28):02d}"
        r = rng.random()
        if r < 0.1:
            c = rng.choice(["EUR", "GBP", "JPY"])
            blocks.append([f"{d} price {c} {rng.uniform(0.005, 2):.4f} USD"])
            continue
        if r < 0.18:
            blocks.append([f"{d} balance {rng.choice(['Assets', 'Assets:Bank', 'Assets:Bank:Checking', 'Expenses'])} {amt(rng)} USD"])
            continue
        hdr = f"{d} {rng.choice('*!')} {rng.choice(['Shop', 'Rent', 'Pay day', 'FX', ''])}".rstrip()
        lines = [hdr]
        n = rng.choice([1, 2, 2, 2, 3, 4])
        cur = rng.choice(CURS)
        total = 0
        for k in range(n):
            acc = rng.choice(ACCS)
            if k == n - 1 and rng.random() < 0.6:
                lines.append(f"  {acc}" + rng.choice(["", "   ; elided"]))
                if rng.random() < 0.1:
                    lines.append(f"  {rng.choice(ACCS)}")
                continue
            cents = rng.randint(-200000, 200000)
            if k == n - 1 and rng.random() < 0.7:
                cents = -total
            total += cents
            s = f"{'-' if cents < 0 else ''}{abs(cents) // 100}.{abs(cents) % 100:02d}"
            if rng.random() < 0.15:
                fx = rng.choice(["EUR", "GBP"])
                lines.append(f"  {acc}\t{s} {fx} @ {rng.choice(['1', '1.25', '0.5', '2'])} {cur}")
            else:
                lines.append(f"  {acc}    {s} {cur}" + rng.choice(["", "  ; note"]))
            if rng.random() < 0.05:
                lines.append("  ; indented comment")
        if rng.random() < 0.05:
            lines.append(rng.choice(["  Asset:Wrong  1.00 USD", "  Assets:bank  1.00 USD", "  Assets:Cash 1.2.3 USD",
                                     "  Assets:Cash 5.00 usd"]))
        blocks.append(lines)
    if rng.random() < 0.7:
        blocks.append(["  Assets:Cash  1.00 USD"])
    blocks.append(["not a directive"])
    rng.shuffle(blocks)
    text = "; generated\n"
    for b in blocks:
        text += "\n".join(b) + "\n" + rng.choice(["\n", "\n \n", "\n\n"])
    return text


def run(tmp_path, text):
    inp = tmp_path / "in.ledger"
    inp.write_text(text)
    out = tmp_path / "out.json"
    r = subprocess.run(["python3", "/app/ledger.py", str(inp), str(out)], capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    return json.loads(out.read_text())


def test_example(tmp_path):
    got = run(tmp_path, open("/app/books.ledger").read())
    assert got == {
        "errors": [{"line": 24, "kind": "balance_failed"}, {"line": 26, "kind": "unbalanced"},
                   {"line": 30, "kind": "unopened_account"}],
        "balances": {"Assets:Bank:Checking": {"USD": "3145.80"}, "Assets:Bank:Savings": {"USD": "200.00"},
                     "Assets:Broker:EUR": {"EUR": "100.00"}, "Equity:Opening": {"USD": "-1500.00"},
                     "Expenses:Food": {"USD": "45.20"}, "Income:Salary": {"USD": "-2000.00"}},
        "net_worth_usd": "3455.80",
        "unpriced": [],
    }


def test_same_day_ordering(tmp_path):
    text = """2024-02-01 * Early
  Assets:Cash    10.00 USD
  Equity:Opening
2024-01-01 open Assets:Cash
2024-01-01 open Equity:Opening
2024-02-01 balance Assets:Cash 0 USD
2024-02-01 open Expenses:Food
2024-02-01 * Lunch
  Expenses:Food   4.00 USD
  Assets:Cash
2024-02-02 balance Assets:Cash 6.00 USD
"""
    got = run(tmp_path, text)
    assert got["errors"] == []
    assert got["balances"] == {"Assets:Cash": {"USD": "6.00"}, "Equity:Opening": {"USD": "-10.00"},
                               "Expenses:Food": {"USD": "4.00"}}


def test_price_annotation_and_conversion(tmp_path):
    text = """2024-01-01 open Assets:Fx
2024-01-01 open Assets:Cash
2024-01-02 * Buy
  Assets:Fx      3 GBP @ 1.333 USD
  Assets:Cash   -3.999 USD
2024-01-03 * Buy more
  Assets:Fx      10 GBP @ 1.25 USD
  Assets:Cash
2024-01-03 price GBP 1.2 USD
2024-01-04 price GBP 1.3 USD
2024-01-05 * Ambiguous
  Assets:Fx      1 GBP
  Assets:Cash    1 USD
  Assets:Cash
"""
    got = run(tmp_path, text)
    assert got["errors"] == [{"line": 11, "kind": "ambiguous_elision"}]
    assert got["balances"] == {"Assets:Cash": {"USD": "-16.50"}, "Assets:Fx": {"GBP": "13.00"}}
    assert got["net_worth_usd"] == "0.40"
    assert got["unpriced"] == []


def test_parse_errors_and_rounding(tmp_path):
    text = """2024-01-01 open Assets:A
2024-01-01 open Income:B
  Assets:A  1.00 USD
2024-01-02 * bad posting
  Assets:A   1.00 USD
  Income:b  -1.00 USD
2024-01-03 * tiny residual ok
  Assets:A   0.125 USD
  Assets:A   0.001 JPY
  Income:B  -0.124 USD
2024-01-04 * single
  Assets:A   1 USD
2024-01-04 open Assets:A
2024-01-05 close Assets:A
"""
    got = run(tmp_path, text)
    assert got["errors"] == [{"line": 3, "kind": "parse"}, {"line": 6, "kind": "parse"},
                             {"line": 11, "kind": "parse"}, {"line": 13, "kind": "duplicate_open"},
                             {"line": 14, "kind": "parse"}]
    assert got["balances"] == {"Assets:A": {"USD": "0.12"}, "Income:B": {"USD": "-0.12"}}
    assert got["unpriced"] == ["JPY"]
    assert got["net_worth_usd"] == "0.12"


@pytest.mark.parametrize("seed", range(8))
def test_generated_journals(tmp_path, seed):
    text = gen(seed)
    assert run(tmp_path, text) == ledger_ref.run(text), text
