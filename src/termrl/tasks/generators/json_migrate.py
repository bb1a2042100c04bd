"""json-migrate: migrate generated JSON records from schema v1 to v2 by a field-by-field spec.

Level 2 adds email and money fields; level 3 adds nested addresses, optional fields and records
that are already v2 (to copy unchanged).
"""

from __future__ import annotations

import json
import random

from termrl.tasks.generators._common import CITIES, FIRST_NAMES, LAST_NAMES, WORDS, Family, Instance, python_script, render

ALREADY_V2 = 'Some records are already v2 (`"schema_version": 2`): copy those files byte for byte.'

SOLVE = """
import json
from pathlib import Path
LEVEL, SPLIT_LAST = @@LEVEL@@, @@SPLIT_LAST@@
out = Path("/app/migrated")
out.mkdir(exist_ok=True)
for path in sorted(Path("/app/records").glob("*.json")):
    doc = json.loads(path.read_text())
    if doc.get("schema_version") == 2:
        (out / path.name).write_text(path.read_text())
        continue
    words = doc["full_name"].split()
    first, last = (" ".join(words[:-1]), words[-1]) if SPLIT_LAST else (words[0], " ".join(words[1:]))
    tags = []
    for tag in doc.get("tags", "").split(","):
        tag = tag.strip()
        if tag and tag not in tags:
            tags.append(tag)
    new = {"schema_version": 2, "id": int(doc["id"].split("-")[1]), "name": {"first": first, "last": last},
           "tags": tags}
    if LEVEL >= 2:
        cents = doc["balance_cents"]
        new["email"] = doc["email"].lower()
        new["balance"] = f"{cents // 100}.{cents % 100:02d}"
    if LEVEL >= 3:
        street, city, zip_code = doc["address"].split("|") if doc.get("address") else (None, None, None)
        new["address"] = {"street": street, "city": city, "zip": zip_code} if doc.get("address") else None
    (out / path.name).write_text(json.dumps(new, indent=2) + "\\n")
"""

TESTS = """
import json
from pathlib import Path

import pytest

EXPECTED = @@EXPECTED@@
UNCHANGED = @@UNCHANGED@@


def load(name):
    return json.loads(Path("/app/migrated", name).read_text())


def test_every_record_migrated():
    assert sorted(p.name for p in Path("/app/migrated").glob("*.json")) == sorted(EXPECTED)


def test_ids_and_version():
    for name, want in EXPECTED.items():
        doc = load(name)
        assert doc.get("schema_version") == 2 and doc.get("id") == want["id"], name


def test_names_split():
    for name, want in EXPECTED.items():
        assert load(name).get("name") == want["name"], name


def test_tags():
    for name, want in EXPECTED.items():
        assert load(name).get("tags") == want["tags"], name


def test_whole_documents():
    for name, want in EXPECTED.items():
        assert load(name) == want, name


def test_v2_records_copied_unchanged():
    for name in UNCHANGED:
        assert Path("/app/migrated", name).read_bytes() == Path("/app/records", name).read_bytes(), name
"""


def _migrate(doc: dict, level: int) -> dict:
    words = doc["full_name"].split()
    tags: list[str] = []
    for tag in doc.get("tags", "").split(","):
        if tag.strip() and tag.strip() not in tags:
            tags.append(tag.strip())
    new = {"schema_version": 2, "id": int(doc["id"].split("-")[1]),
           "name": {"first": " ".join(words[:-1]), "last": words[-1]}, "tags": tags}
    if level >= 2:
        new["email"] = doc["email"].lower()
        new["balance"] = f"{doc['balance_cents'] // 100}.{doc['balance_cents'] % 100:02d}"
    if level >= 3:
        parts = doc["address"].split("|") if doc.get("address") else None
        new["address"] = dict(zip(["street", "city", "zip"], parts)) if parts else None
    return new


def make(rng: random.Random, difficulty: int) -> Instance:
    files: dict[str, str] = {}
    expected: dict[str, dict] = {}
    unchanged: list[str] = []
    ids = rng.sample(range(1, 100_000), {1: 6, 2: 10, 3: 14}[difficulty])
    for i, uid in enumerate(ids):
        words = [rng.choice(FIRST_NAMES)] + ([rng.choice(FIRST_NAMES)] if i == 0 or rng.random() < 0.3 else [])
        words.append(rng.choice(LAST_NAMES))
        picked = [rng.choice(WORDS) for _ in range(rng.randint(0, 4))]
        tags = ",".join(rng.choice(["", " ", "  "]) + t + rng.choice(["", " "]) for t in picked + picked[:1])
        doc: dict = {"id": f"u-{uid:05d}", "full_name": " ".join(words), "tags": tags}
        if difficulty >= 2:
            doc["email"] = f"{words[0]}.{words[-1]}@{rng.choice(['Example.test', 'mail.TEST', 'corp.test'])}"
            doc["balance_cents"] = 5 if i == 1 else rng.randint(0, 2_000_000)
        if difficulty == 3:
            if rng.random() < 0.8:
                doc["address"] = f"{rng.randint(1, 200)} {rng.choice(WORDS).title()} St|{rng.choice(CITIES)}|{rng.randint(10000, 99999)}"
            if rng.random() < 0.25:
                del doc["tags"]
        name = f"{rng.choice(WORDS)}-{uid}.json"
        if difficulty == 3 and i % 5 == 4:
            doc = _migrate(doc, difficulty)
            unchanged.append(name)
            files[f"records/{name}"] = json.dumps(doc, separators=(",", ":")) + "\n"
            expected[name] = doc
            continue
        files[f"records/{name}"] = json.dumps(doc, indent=rng.choice([None, 2])) + "\n"
        expected[name] = _migrate(doc, difficulty)

    spec = ["`schema_version`: `2`.",
            "`id`: the number in `id` as an integer (`\"u-00042\"` -> `42`).",
            "`name`: `{\"first\": ..., \"last\": ...}` from `full_name`: `last` is its last word, `first` every word "
            "before it, joined by single spaces (`\"Ada Mae Berg\"` -> first `\"Ada Mae\"`, last `\"Berg\"`).",
            "`tags`: a list from the comma-separated `tags` string: each tag trimmed, empty ones dropped, repeats "
            "dropped (first occurrence kept, order kept)" + (" — a missing `tags` gives `[]`." if difficulty == 3 else ".")]
    if difficulty >= 2:
        spec += ["`email`: `email` in lower case.",
                 "`balance`: `balance_cents` as a string with exactly two decimals (`12345` -> `\"123.45\"`, "
                 "`5` -> `\"0.05\"`)."]
    if difficulty == 3:
        spec += ["`address`: `\"street|city|zip\"` becomes `{\"street\": ..., \"city\": ..., \"zip\": ...}` "
                 "(all strings); a missing `address` gives `null`."]
    instruction = f"""
`/app/records/*.json` hold user records in schema v1. Write each one, migrated to schema v2, to
`/app/migrated/<same file name>`. A v2 record has exactly these keys:

{chr(10).join(f"- {s}" for s in spec)}

The v1 keys (`full_name`{", `balance_cents`" if difficulty >= 2 else ""}, ...) are not kept.
{ALREADY_V2 if difficulty == 3 else ""}
"""
    return Instance(
        instruction=instruction,
        files=files,
        solve=python_script(render(SOLVE, level=difficulty, split_last=True)),
        wrong={"wrong_first_word_is_first_name.sh": python_script(render(SOLVE, level=difficulty, split_last=False))},
        tests=render(TESTS, expected=expected, unchanged=unchanged),
        answer=expected,
    )


FAMILY = Family(
    name="json-migrate",
    category="data-processing",
    tags=("json", "migration", "schema"),
    summary="Migrate generated JSON records from schema v1 to v2 (split names, parse tags, money, addresses).",
    make=make,
)
