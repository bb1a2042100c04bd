"""csv-to-json: turn a generated shipments CSV into JSON by stated rules.

Rules: filter by status, rename keys, parse ids, numbers and flags, sort numerically.
Level 2 adds quoted fields with commas and empty weights (-> null, sorted last); level 3
adds dates in three formats to normalise to ISO 8601.
"""

from __future__ import annotations

import csv
import io
import random
from datetime import date, timedelta

from termrl.tasks.generators._common import CITIES, FIRST_NAMES, LAST_NAMES, Family, Instance, python_script, render

STATUSES = ["delivered", "in_transit", "returned", "lost"]
RENAMES = {"customer": ["customer", "client", "buyer", "consignee"], "weight_kg": ["weight", "kg", "mass_kg"],
           "shipped_on": ["date", "shipped", "ship_date"], "express": ["express", "priority", "is_express"]}
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def _date_text(rng: random.Random, day: date, difficulty: int, force: str | None = None) -> str:
    style = force or (rng.choice(["iso", "dmy", "text"]) if difficulty == 3 else "iso")
    if style == "dmy":
        return day.strftime("%d/%m/%Y")
    if style == "text":
        return f"{day.day} {MONTHS[day.month - 1]} {day.year}"
    return day.isoformat()


SOLVE = """
import csv, json, os
from datetime import datetime
KEEP, NAMES, MODE = @@KEEP@@, @@NAMES@@, @@MODE@@

def iso(text):
    if MODE == "us_dates" and "/" in text:
        try:
            return datetime.strptime(text, "%m/%d/%Y").date().isoformat()
        except ValueError:
            pass
    for fmt in ("%Y-%m-%d", "%d/%m/%Y", "%d %b %Y"):
        try:
            return datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            pass
    raise SystemExit(f"unknown date {text!r}")

rows = []
with open("/app/data/shipments.csv", newline="") as fh:
    for row in csv.DictReader(fh):
        if row["status"] != KEEP:
            continue
        weight = row["weight_kg"].strip()
        if weight:
            weight = float(weight)
        else:
            weight = 0.0 if MODE == "missing_as_zero" else None
        rows.append({"id": int(row["shipment_id"].removeprefix("SH-")), NAMES["customer"]: row["customer"],
                     NAMES["weight_kg"]: weight, NAMES["shipped_on"]: iso(row["shipped_on"]),
                     NAMES["express"]: row["express"] == "Y"})
w = NAMES["weight_kg"]
if MODE == "string_sort":
    rows.sort(key=lambda r: r["id"])
    rows.sort(key=lambda r: str(r[w]), reverse=True)
else:
    rows.sort(key=lambda r: (r[w] is None, -(r[w] or 0), r["id"]))
os.makedirs("/app/out", exist_ok=True)
with open("/app/out/shipments.json", "w") as fh:
    json.dump(rows, fh, indent=2)
"""

TESTS = """
import json
from pathlib import Path

import pytest

EXPECTED = @@EXPECTED@@
WEIGHT = @@WEIGHT@@


@pytest.fixture(scope="module")
def rows():
    data = json.loads(Path("/app/out/shipments.json").read_text())
    assert isinstance(data, list), "the output must be a JSON array"
    return data


def test_kept_rows(rows):
    assert sorted(r.get("id") for r in rows) == sorted(r["id"] for r in EXPECTED)


def test_keys_renamed(rows):
    for row in rows:
        assert sorted(row) == sorted(EXPECTED[0]), row


def test_values(rows):
    by_id = {r["id"]: r for r in EXPECTED}
    for row in rows:
        want = by_id[row["id"]]
        for key, value in want.items():
            if key == WEIGHT and value is not None:
                assert row[key] == pytest.approx(value, abs=1e-9), (row["id"], key)
            else:
                assert row[key] == value, (row["id"], key)


def test_types(rows):
    for row in rows:
        assert type(row["id"]) is int
        assert row[WEIGHT] is None or type(row[WEIGHT]) in (int, float), row
        assert all(type(v) is bool for k, v in row.items() if isinstance(EXPECTED[0][k], bool))


def test_order(rows):
    assert [r["id"] for r in rows] == [r["id"] for r in EXPECTED]
"""


def make(rng: random.Random, difficulty: int) -> Instance:
    keep = rng.choice(STATUSES[:3])
    names = {field: rng.choice(options) for field, options in RENAMES.items()}
    n_rows = {1: 14, 2: 24, 3: 36}[difficulty] + rng.randint(0, 6)
    ids = rng.sample(range(1, 99999), n_rows)
    start = date(2025, rng.randint(1, 12), rng.randint(1, 28))
    records, expected = [], []
    for i, sid in enumerate(ids):
        # The first rows are kept and carry the traps: weights below and above 10 (string sort
        # differs), an empty weight, a name with a comma, and an ambiguous day/month date.
        status = keep if i < 5 or rng.random() < 0.45 else rng.choice([s for s in STATUSES if s != keep])
        weight = round(rng.uniform(0.5, 9.9), rng.choice([1, 2])) if i % 2 else round(rng.uniform(10, 80), 2)
        if i == 1:
            weight = round(rng.uniform(9.0, 9.9), 2)  # "9.x" sorts above "1x".."7x" as text
        weight_text = "" if difficulty >= 2 and (i == 2 or rng.random() < 0.08) else f"{weight:g}"
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
        if difficulty >= 2 and (i == 3 or rng.random() < 0.2):
            name = f"{name}, {rng.choice(CITIES)} branch" if rng.random() < 0.7 else f'{name} "{rng.choice(CITIES)}"'
        day = start + timedelta(days=rng.randint(0, 300))
        force = None
        if difficulty == 3 and i == 4:
            day = date(day.year, rng.randint(1, 12), rng.randint(1, 12))
            if day.day == day.month:
                day = date(day.year, day.month, day.day % 12 + 1)
            force = "dmy"
        express = rng.choice("YN")
        records.append([f"SH-{sid:05d}", name, weight_text, _date_text(rng, day, difficulty, force), express, status])
        if status == keep:
            expected.append({"id": sid, names["customer"]: name,
                             names["weight_kg"]: float(weight_text) if weight_text else None,
                             names["shipped_on"]: day.isoformat(), names["express"]: express == "Y"})
    w = names["weight_kg"]
    expected.sort(key=lambda r: (r[w] is None, -(r[w] or 0), r["id"]))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["shipment_id", "customer", "weight_kg", "shipped_on", "express", "status"])
    writer.writerows(records)

    rules = [f"Keep only the rows whose `status` is `{keep}`; `status` itself is not part of the output.",
             "`id`: the number of `shipment_id` as a JSON integer (`SH-00042` -> `42`).",
             f"`{names['customer']}`: `customer`, unchanged.",
             f"`{names['weight_kg']}`: `weight_kg` as a JSON number"
             + (" (an empty weight becomes `null`)." if difficulty >= 2 else "."),
             f"`{names['shipped_on']}`: `shipped_on` as an ISO date `YYYY-MM-DD`"
             + (" — the file mixes `YYYY-MM-DD`, `DD/MM/YYYY` (day first) and `D Mon YYYY` (`4 Mar 2026`)."
                if difficulty == 3 else "."),
             f"`{names['express']}`: `true` when `express` is `Y`, else `false`."]
    instruction = f"""
`/app/data/shipments.csv` (standard CSV with a header; fields may be quoted) lists shipments with the
columns `shipment_id,customer,weight_kg,shipped_on,express,status`.

Write `/app/out/shipments.json`: a JSON array with one object per kept row, each with exactly the keys
`id`, `{names['customer']}`, `{names['weight_kg']}`, `{names['shipped_on']}`, `{names['express']}`:

{chr(10).join(f"- {r}" for r in rules)}

Order the array by `{names['weight_kg']}`, heaviest first (numerically){", rows with a null weight last" if difficulty >= 2 else ""};
ties by `id` ascending. Create `/app/out/` if needed. Do not modify the CSV.
"""
    mode = {1: "string_sort", 2: "missing_as_zero", 3: "us_dates"}[difficulty]
    wrong_name = {1: "wrong_string_sort.sh", 2: "wrong_missing_weight_zero.sh", 3: "wrong_month_first_dates.sh"}
    return Instance(
        instruction=instruction,
        files={"data/shipments.csv": buf.getvalue()},
        solve=python_script(render(SOLVE, keep=keep, names=names, mode="ok")),
        wrong={wrong_name[difficulty]: python_script(render(SOLVE, keep=keep, names=names, mode=mode))},
        tests=render(TESTS, expected=expected, weight=w),
        answer=expected,
    )


FAMILY = Family(
    name="csv-to-json",
    category="data-processing",
    tags=("csv", "json", "transformation"),
    summary="Convert a generated shipments CSV to JSON: filter, rename, type, normalise dates, sort.",
    make=make,
)
