"""unit-convert: total generated measurements in mixed units, per item, in SI units.

Level 1: lengths only. Level 2: lengths and masses. Level 3: also invalid rows to skip and count.
Units are case-insensitive (``KM``, ``Ft``): treating them as case-sensitive is the trap.
"""

from __future__ import annotations

import csv
import io
import random

from termrl.tasks.generators._common import WORDS, Family, Instance, bullet_list, python_script, render

FACTORS = {
    "length": ("m", {"mm": 0.001, "cm": 0.01, "m": 1.0, "km": 1000.0, "in": 0.0254, "ft": 0.3048}),
    "mass": ("kg", {"g": 0.001, "kg": 1.0, "t": 1000.0, "lb": 0.45359237, "oz": 0.028349523125}),
}

SOLVE = """
import csv
FACTORS = @@FACTORS@@
IGNORE_CASE = @@IGNORE_CASE@@
totals, skipped = {}, 0
with open("/app/measurements.csv", newline="") as fh:
    for row in csv.DictReader(fh):
        unit = row["unit"].strip().lower() if IGNORE_CASE else row["unit"].strip()
        try:
            quantity = float(row["quantity"])
        except ValueError:
            skipped += 1
            continue
        for dimension, (target, factors) in FACTORS.items():
            if unit in factors:
                key = (row["item"], dimension)
                totals[key] = totals.get(key, 0.0) + quantity * factors[unit]
                break
        else:
            skipped += 1
with open("/app/totals.csv", "w") as fh:
    fh.write("item,dimension,total,unit\\n")
    for (item, dimension), total in sorted(totals.items()):
        fh.write(f"{item},{dimension},{total:.3f},{FACTORS[dimension][0]}\\n")
if @@WITH_SKIPPED@@:
    open("/app/skipped.txt", "w").write(f"{skipped}\\n")
"""

TESTS = """
import csv
from pathlib import Path

import pytest

EXPECTED = @@EXPECTED@@
SKIPPED = @@SKIPPED@@


@pytest.fixture(scope="module")
def rows():
    text = Path("/app/totals.csv").read_text()
    assert text.splitlines()[0] == "item,dimension,total,unit"
    return list(csv.DictReader(text.splitlines()))


def test_rows_present(rows):
    assert sorted((r["item"], r["dimension"]) for r in rows) == sorted((e[0], e[1]) for e in EXPECTED)


def test_order(rows):
    assert [(r["item"], r["dimension"]) for r in rows] == [(e[0], e[1]) for e in EXPECTED]


def test_totals(rows):
    got = {(r["item"], r["dimension"]): r for r in rows}
    for item, dimension, total, unit in EXPECTED:
        row = got[(item, dimension)]
        assert float(row["total"]) == pytest.approx(float(total), abs=0.0011), (item, dimension)
        assert row["unit"] == unit


def test_three_decimals(rows):
    for row in rows:
        assert len(row["total"].split(".")[-1]) == 3 and "." in row["total"], row


def test_skipped():
    if SKIPPED is not None:
        assert Path("/app/skipped.txt").read_text().strip() == str(SKIPPED)
"""


def make(rng: random.Random, difficulty: int) -> Instance:
    dims = ["length"] if difficulty == 1 else ["length", "mass"]
    factors = {d: FACTORS[d] for d in dims}
    items = rng.sample(WORDS, {1: 3, 2: 4, 3: 5}[difficulty])
    rows: list[list[str]] = []
    totals: dict[tuple[str, str], float] = {}
    skipped = 0
    for i in range({1: 18, 2: 30, 3: 40}[difficulty] + rng.randint(0, 8)):
        item, dim = rng.choice(items), rng.choice(dims)
        unit = rng.choice(sorted(factors[dim][1]))
        qty = round(rng.uniform(0.1, 500), rng.choice([0, 1, 2, 3]))
        shown = unit.upper() if i == 0 or rng.random() < 0.25 else unit.capitalize() if rng.random() < 0.1 else unit
        if i == 0:
            dim, unit, shown = "length", "km", "KM"  # a large factor, upper-case: skipping it changes the total a lot
        rows.append([item, f"{qty:g}", shown])
        totals[(item, dim)] = totals.get((item, dim), 0.0) + qty * factors[dim][1][unit]
    if difficulty == 3:
        for _ in range(rng.randint(3, 6)):
            bad = rng.choice([[rng.choice(items), "n/a", "kg"], [rng.choice(items), "12", "parsec"],
                              [rng.choice(items), "", "m"], [rng.choice(items), "7", "furlong"]])
            rows.insert(rng.randrange(len(rows) + 1), bad)
            skipped += 1
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["item", "quantity", "unit"])
    writer.writerows(rows)
    expected = [(item, dim, f"{total:.3f}", factors[dim][0]) for (item, dim), total in sorted(totals.items())]

    unit_lines = [f"{dim}: " + ", ".join(f"`{u}` = {f:.12g} {target}" for u, f in table.items())
                  for dim, (target, table) in factors.items()]
    extra = ""
    if difficulty == 3:
        extra = ("\nSome rows are invalid (a quantity that is not a number, or a unit not listed above): leave them "
                 "out and write how many there were to `/app/skipped.txt` (just the number).\n")
    instruction = f"""
`/app/measurements.csv` has the columns `item,quantity,unit`. Units are case-insensitive (`KM` is `km`):

{bullet_list(unit_lines)}

Write `/app/totals.csv` with the header `item,dimension,total,unit` and one row per item and dimension
that has measurements: `dimension` is {" or ".join(f"`{d}`" for d in dims)}, `total` the sum of all of that
item's quantities of that dimension converted to `{"`/`".join(t for t, _ in factors.values())}` (the `unit` column),
written with exactly 3 decimals (`12.500`). Sort rows by item, then dimension.
{extra}"""
    params = {"factors": factors, "with_skipped": difficulty == 3}
    return Instance(
        instruction=instruction,
        files={"measurements.csv": buf.getvalue()},
        solve=python_script(render(SOLVE, ignore_case=True, **params)),
        wrong={"wrong_case_sensitive_units.sh": python_script(render(SOLVE, ignore_case=False, **params))},
        tests=render(TESTS, expected=expected, skipped=skipped if difficulty == 3 else None),
        answer=expected,
    )


FAMILY = Family(
    name="unit-convert",
    category="mathematics",
    tags=("units", "csv", "arithmetic"),
    summary="Total generated measurements in mixed, case-insensitive units per item in SI units.",
    make=make,
)
