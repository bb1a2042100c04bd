"""dedup-merge: merge generated contact exports, keep the newest record per email, sort.

Level 2 spreads the records over several files with case differences in emails; level 3 adds
stray whitespace and deletion markers (the newest record says the contact was deleted).
"""

from __future__ import annotations

import csv
import io
import random
from datetime import date, timedelta

from termrl.tasks.generators._common import CITIES, FIRST_NAMES, LAST_NAMES, Family, Instance, python_script, render

SOLVE = """
import csv, glob
LATEST = @@LATEST@@
best = {}
for path in sorted(glob.glob("/app/exports/*.csv")):
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            row = {k: v.strip() for k, v in row.items()}
            key = row["email"].lower()
            if key not in best or (LATEST and row["updated"] > best[key]["updated"]):
                best[key] = row
rows = [dict(r, email=k) for k, r in best.items() if r.get("status", "") != "deleted"]
rows.sort(key=lambda r: (r["city"], r["name"], r["email"]))
with open("/app/contacts.csv", "w", newline="") as fh:
    writer = csv.writer(fh, lineterminator="\\n")
    writer.writerow(["email", "name", "city", "updated"])
    for r in rows:
        writer.writerow([r["email"], r["name"], r["city"], r["updated"]])
"""

TESTS = """
import csv
from pathlib import Path

import pytest

EXPECTED = @@EXPECTED@@


@pytest.fixture(scope="module")
def rows():
    lines = Path("/app/contacts.csv").read_text().splitlines()
    assert lines[0] == "email,name,city,updated"
    return [tuple(r) for r in csv.reader(lines[1:])]


def test_one_row_per_contact(rows):
    emails = [r[0] for r in rows]
    assert len(emails) == len(set(emails))
    assert sorted(emails) == sorted(e[0] for e in EXPECTED)


def test_newest_record_wins(rows):
    got = {r[0]: r for r in rows}
    for row in EXPECTED:
        assert got.get(row[0]) == row, row[0]


def test_sorted_by_city_then_name(rows):
    assert rows == [tuple(r) for r in EXPECTED]


def test_emails_lowercase(rows):
    assert all(r[0] == r[0].lower().strip() for r in rows)
"""


def make(rng: random.Random, difficulty: int) -> Instance:
    n_contacts = {1: 10, 2: 16, 3: 22}[difficulty] + rng.randint(0, 4)
    n_files = {1: 1, 2: 3, 3: 4}[difficulty]
    start = date(2024, rng.randint(1, 12), rng.randint(1, 28))
    records: list[list[str]] = []  # email, name, city, updated[, status]
    expected = []
    for i in range(n_contacts):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        email = f"{first}.{last}{rng.randint(1, 99)}@{rng.choice(['mail.test', 'corp.test', 'post.test'])}".lower()
        if any(r[0].lower() == email for r in records):
            continue
        n_versions = 3 if i == 0 else rng.choice([1, 1, 2, 3])
        days = sorted(rng.sample(range(0, 600), n_versions))
        versions = []
        for day in days:
            shown = email
            if difficulty >= 2 and rng.random() < 0.4:
                shown = email.capitalize() if rng.random() < 0.5 else email.upper()
            versions.append([shown, f"{first} {last}", rng.choice(CITIES), (start + timedelta(days=day)).isoformat(), ""])
        if difficulty == 3 and i % 7 == 3 and n_versions > 1:
            versions[-1][4] = "deleted"
        newest = versions[-1]
        if newest[4] != "deleted":
            expected.append((email, newest[1], newest[2], newest[3]))
        # The oldest version first in file order for contact 0: keeping the first seen is the trap.
        order = versions if i == 0 else rng.sample(versions, len(versions))
        records += order
    expected.sort(key=lambda r: (r[2], r[1], r[0]))

    files: dict[str, str] = {}
    chunks: list[list[list[str]]] = [[] for _ in range(n_files)]
    for j, rec in enumerate(records):
        chunks[0 if j < 3 else rng.randrange(n_files)].append(rec)
    for k, chunk in enumerate(chunks):
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["email", "name", "city", "updated"] + (["status"] if difficulty == 3 else []))
        for email, name, city, updated, status in chunk:
            row = [email, name, city, updated] + ([status] if difficulty == 3 else [])
            if difficulty == 3 and rng.random() < 0.3:
                row = [f" {v} " if rng.random() < 0.5 else v for v in row]
            writer.writerow(row)
        files[f"exports/part-{k + 1:02d}.csv"] = buf.getvalue()

    rules = ["A contact is identified by its email" + (", compared case-insensitively" if difficulty >= 2 else "")
             + "; when it appears more than once, keep only its record with the latest `updated` date (ISO dates; "
             "never tied).",
             "Write emails in lower case.",
             "Sort rows by `city`, then `name`, then `email`."]
    if difficulty == 3:
        rules[0:0] = ["Fields may have stray spaces around them: trim every field.",
                      "The exports have a `status` column: when a contact's latest record has status `deleted`, "
                      "leave that contact out entirely. `status` is not written to the output."]
    instruction = f"""
Contact exports are in {"`/app/exports/part-01.csv`" if n_files == 1 else "`/app/exports/part-*.csv` (read every file)"},
standard CSV with a header. Merge them into `/app/contacts.csv`, a CSV with the header `email,name,city,updated`
and one row per contact:

{chr(10).join(f"- {r}" for r in rules)}
"""
    return Instance(
        instruction=instruction,
        files=files,
        solve=python_script(render(SOLVE, latest=True)),
        wrong={"wrong_keeps_first_seen.sh": python_script(render(SOLVE, latest=False))},
        tests=render(TESTS, expected=expected),
        answer=expected,
    )


FAMILY = Family(
    name="dedup-merge",
    category="data-processing",
    tags=("csv", "dedup", "sorting"),
    summary="Merge generated contact exports: dedupe by email (newest wins), drop deleted, sort.",
    make=make,
)
