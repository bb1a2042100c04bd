"""json-migrate: write a migration script that brings records of mixed schema versions to the newest one.

A seed draws the structure of the problem:

- the **storage**: a folder of JSON files, a JSON Lines file, one JSON array, or an SQLite table of JSON
  documents (the output uses the same layout);
- the **version chain**: 1 step at level 1, 2 at level 2, 3 at level 3, each made of schema changes drawn
  from a pool (rename, drop, add a default, id to integer, split a name, comma string to list, cents to a
  decimal string, yes/no to boolean, epoch to ISO time, nest an address, expand status codes, normalise a
  phone number, lower-case an email), each on its own field;
- which records are at which version (levels 2-3 mix them; at level 3 legacy records carry no version).

At level 3 the notes for one step are lost: only example pairs (before/after) show what it does, so the
agent has to work the change out from the data. The agent writes ``/app/migrate.py SRC DST``; the tests
run it on hidden records too. The reference solution is composed of the storage's reader and writer and
one code fragment per schema change, so different seeds need different programs.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from termrl.tasks.generators._common import CITIES, FIRST_NAMES, LAST_NAMES, WORDS, Family, Instance, render

PLAIN = {"country": ["DE", "FR", "SE", "PT", "PL", "IT"], "plan": ["free", "team", "pro", "enterprise"],
         "nickname": None, "team": None, "score": None}
RENAMES = {"country": "country_code", "plan": "subscription", "nickname": "handle", "team": "department",
           "score": "rating"}
DEFAULTS = [("locale", "en"), ("verified", False), ("tier", "basic"), ("quota_mb", 512), ("region", None)]
STATUS = {"A": "active", "S": "suspended", "C": "closed"}
KINDS = ("rename", "drop", "add_default", "id_to_int", "split_name", "tags_to_list", "cents_to_decimal",
         "yesno_to_bool", "epoch_to_iso", "nest_address", "expand_status", "phone_digits", "lower_email")
INFERABLE = ("rename", "drop", "add_default", "id_to_int", "yesno_to_bool", "epoch_to_iso", "nest_address",
             "expand_status", "lower_email")
"""Changes that a few before/after examples pin down exactly (level 3's lost step draws from these)."""


@dataclass(frozen=True)
class Op:
    kind: str
    field: str = ""
    new: str = ""
    value: object = None


# --- the changes: text, effect, reference code, plausible mistake ------------------------------------------

def _describe(op: Op) -> str:
    return {
        "rename": f"`{op.field}` is renamed to `{op.new}` (value unchanged).",
        "drop": f"`{op.field}` is removed.",
        "add_default": f"a new key `{op.new}` is added with the value `{json.dumps(op.value)}`.",
        "id_to_int": "`id` (`\"u-00042\"`) becomes the integer after the dash (`42`).",
        "split_name": "`full_name` is replaced by `name`: `{\"first\": ..., \"last\": ...}`, `last` its last word, "
                      "`first` every word before it joined by single spaces (`\"Ada Mae Berg\"` -> `\"Ada Mae\"`, "
                      "`\"Berg\"`).",
        "tags_to_list": "`tags`, a comma-separated string, becomes a list: each tag trimmed, empty ones dropped, "
                        "repeats dropped (first occurrence kept, order kept); `\"\"` gives `[]`.",
        "cents_to_decimal": "`balance_cents` (integer) is replaced by `balance`: a string with exactly two decimals "
                            "(`12340` -> `\"123.40\"`, `5` -> `\"0.05\"`).",
        "yesno_to_bool": "`active` (`\"yes\"`/`\"no\"`) becomes a JSON boolean.",
        "epoch_to_iso": "`created` (Unix seconds) is replaced by `created_at`, the UTC time as "
                        "`YYYY-MM-DDTHH:MM:SSZ`.",
        "nest_address": "`street`, `city` and `zip` move into `address`: `{\"street\": ..., \"city\": ..., "
                        "\"zip\": ...}` (values unchanged).",
        "expand_status": "`status` codes are spelled out: `A` -> `active`, `S` -> `suspended`, `C` -> `closed`.",
        "phone_digits": "`phone` keeps its leading `+` and its digits, nothing else (`\"+49 (30) 1234-56\"` -> "
                        "`\"+4930123456\"`).",
        "lower_email": "`email` is lower-cased.",
    }[op.kind]


def _apply(op: Op, doc: dict) -> dict:
    doc = dict(doc)
    if op.kind == "rename":
        doc[op.new] = doc.pop(op.field)
    elif op.kind == "drop":
        del doc[op.field]
    elif op.kind == "add_default":
        doc[op.new] = op.value
    elif op.kind == "id_to_int":
        doc["id"] = int(doc["id"].split("-")[1])
    elif op.kind == "split_name":
        words = doc.pop("full_name").split()
        doc["name"] = {"first": " ".join(words[:-1]), "last": words[-1]}
    elif op.kind == "tags_to_list":
        tags: list[str] = []
        for tag in doc["tags"].split(","):
            if tag.strip() and tag.strip() not in tags:
                tags.append(tag.strip())
        doc["tags"] = tags
    elif op.kind == "cents_to_decimal":
        cents = doc.pop("balance_cents")
        doc["balance"] = f"{cents // 100}.{cents % 100:02d}"
    elif op.kind == "yesno_to_bool":
        doc["active"] = doc["active"] == "yes"
    elif op.kind == "epoch_to_iso":
        doc["created_at"] = datetime.fromtimestamp(doc.pop("created"), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    elif op.kind == "nest_address":
        doc["address"] = {k: doc.pop(k) for k in ("street", "city", "zip")}
    elif op.kind == "expand_status":
        doc["status"] = STATUS[doc["status"]]
    elif op.kind == "phone_digits":
        doc["phone"] = "+" + "".join(ch for ch in doc["phone"] if ch.isdigit())
    else:
        doc["email"] = doc["email"].lower()
    return doc


CODE = {
    "rename": ("doc[NEW] = doc.pop(FIELD)", "doc[NEW] = doc[FIELD]"),
    "drop": ("del doc[FIELD]", "doc[FIELD] = None"),
    "add_default": ("doc[NEW] = VALUE", "doc[NEW] = str(VALUE)"),
    "id_to_int": ("doc[\"id\"] = int(doc[\"id\"].split(\"-\")[1])", "doc[\"id\"] = doc[\"id\"].split(\"-\")[1]"),
    "split_name": ("first, _, last = doc.pop(\"full_name\").rpartition(\" \")\n"
                   "doc[\"name\"] = {\"first\": \" \".join(first.split()), \"last\": last}",
                   "first, _, last = doc.pop(\"full_name\").partition(\" \")\n"
                   "doc[\"name\"] = {\"first\": first, \"last\": last}"),
    "tags_to_list": ("tags = [t.strip() for t in doc[\"tags\"].split(\",\") if t.strip()]\n"
                     "doc[\"tags\"] = list(dict.fromkeys(tags))",
                     "doc[\"tags\"] = [t.strip() for t in doc[\"tags\"].split(\",\") if t.strip()]"),
    "cents_to_decimal": ("cents = doc.pop(\"balance_cents\")\ndoc[\"balance\"] = f\"{cents // 100}.{cents % 100:02d}\"",
                         "doc[\"balance\"] = str(doc.pop(\"balance_cents\") / 100)"),
    "yesno_to_bool": ("doc[\"active\"] = doc[\"active\"] == \"yes\"", "doc[\"active\"] = bool(doc[\"active\"])"),
    "epoch_to_iso": ("when = datetime.fromtimestamp(doc.pop(\"created\"), timezone.utc)\n"
                     "doc[\"created_at\"] = when.strftime(\"%Y-%m-%dT%H:%M:%SZ\")",
                     "doc[\"created_at\"] = datetime.fromtimestamp(doc.pop(\"created\"), timezone.utc).isoformat()"),
    "nest_address": ("doc[\"address\"] = {k: doc.pop(k) for k in (\"street\", \"city\", \"zip\")}",
                     "doc[\"address\"] = {k: doc[k] for k in (\"street\", \"city\", \"zip\")}"),
    "expand_status": ("doc[\"status\"] = {\"A\": \"active\", \"S\": \"suspended\", \"C\": \"closed\"}[doc[\"status\"]]",
                      "doc[\"status\"] = doc[\"status\"].lower()"),
    "phone_digits": ("doc[\"phone\"] = \"+\" + re.sub(r\"\\D\", \"\", doc[\"phone\"])",
                     "doc[\"phone\"] = doc[\"phone\"].replace(\" \", \"\")"),
    "lower_email": ("doc[\"email\"] = doc[\"email\"].lower()", "doc[\"email\"] = doc[\"email\"].strip()"),
}
MISTAKE_NAMES = {
    "rename": "wrong_rename_keeps_old_key", "drop": "wrong_drop_leaves_null", "add_default": "wrong_default_as_text",
    "id_to_int": "wrong_id_left_as_text", "split_name": "wrong_first_word_is_first_name",
    "tags_to_list": "wrong_tags_keep_repeats", "cents_to_decimal": "wrong_balance_as_float",
    "yesno_to_bool": "wrong_any_text_is_true", "epoch_to_iso": "wrong_iso_offset_not_z",
    "nest_address": "wrong_address_copied_not_moved", "expand_status": "wrong_status_lowercased",
    "phone_digits": "wrong_phone_only_spaces_removed", "lower_email": "wrong_email_case_kept",
}


def _code(op: Op, mistake: bool = False) -> str:
    code = CODE[op.kind][1 if mistake else 0]
    for name, value in (("FIELD", op.field), ("NEW", op.new), ("VALUE", op.value)):
        code = code.replace(name, json.dumps(value) if name != "VALUE" else repr(value))
    return code


# --- storage layouts ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Storage:
    key: str
    src: str
    dst: str
    describe: str
    read: str
    write: str


STORAGES = {
    "dir": Storage(
        "dir", "records", "migrated",
        "a folder of JSON files, one record per file (`SRC/<name>.json`); DST is a folder holding one file per "
        "record under the same file name",
        "docs = {p.name: json.loads(p.read_text()) for p in sorted(Path(src).glob(\"*.json\"))}",
        "Path(dst).mkdir(parents=True, exist_ok=True)\n"
        "for name, doc in out.items():\n    (Path(dst) / name).write_text(json.dumps(doc, indent=2) + \"\\n\")"),
    "jsonl": Storage(
        "jsonl", "records.jsonl", "migrated.jsonl",
        "a JSON Lines file, one record per line; DST is a JSON Lines file with the records in the same order",
        "lines = [line for line in Path(src).read_text().splitlines() if line.strip()]\n"
        "docs = {i: json.loads(line) for i, line in enumerate(lines)}",
        "Path(dst).write_text(\"\".join(json.dumps(doc) + \"\\n\" for doc in out.values()))"),
    "array": Storage(
        "array", "records.json", "migrated.json",
        "one JSON file holding an array of records; DST is one JSON file holding the array of migrated records "
        "in the same order",
        "docs = dict(enumerate(json.loads(Path(src).read_text())))",
        "Path(dst).write_text(json.dumps(list(out.values()), indent=1) + \"\\n\")"),
    "sqlite": Storage(
        "sqlite", "records.db", "migrated.db",
        "an SQLite database with a table `records(id INTEGER PRIMARY KEY, body TEXT)`, `body` one JSON record; "
        "DST is a new SQLite database with the same table, each row keeping its `id`, `body` the migrated record",
        "with sqlite3.connect(src) as db:\n"
        "    docs = {row[0]: json.loads(row[1]) for row in db.execute(\"SELECT id, body FROM records ORDER BY id\")}",
        "Path(dst).unlink(missing_ok=True)\n"
        "with sqlite3.connect(dst) as db:\n"
        "    db.execute(\"CREATE TABLE records (id INTEGER PRIMARY KEY, body TEXT)\")\n"
        "    db.executemany(\"INSERT INTO records VALUES (?, ?)\", [(k, json.dumps(v)) for k, v in out.items()])"),
}


def _store(storage: Storage, docs: list[tuple[str, dict]], compact: random.Random | None = None) -> dict[str, bytes]:
    """The files that hold ``docs`` (name, record) in ``storage``'s layout, relative to the data folder."""
    if storage.key == "dir":
        return {f"{storage.src}/{name}": (json.dumps(doc, indent=compact.choice([None, 2]) if compact else None)
                                          + "\n").encode() for name, doc in docs}
    if storage.key == "jsonl":
        return {storage.src: "".join(json.dumps(doc) + "\n" for _, doc in docs).encode()}
    if storage.key == "array":
        return {storage.src: (json.dumps([doc for _, doc in docs], indent=2) + "\n").encode()}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "db")
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE records (id INTEGER PRIMARY KEY, body TEXT)")
            db.executemany("INSERT INTO records VALUES (?, ?)", [(int(name), json.dumps(doc)) for name, doc in docs])
        db.close()
        return {storage.src: path.read_bytes()}


SOLVE = """#!/bin/bash
set -euo pipefail
cat > /app/migrate.py <<'EOF'
import json
import re
import sqlite3
import sys
from datetime import datetime, timezone
from pathlib import Path

TARGET = @@TARGET@@

@@STEPS@@

def version(doc):
    return doc.get("schema_version", 1)

def migrate(doc):
    for v in range(@@FIRST@@, TARGET):
        doc = STEPS[v](doc)
        doc["schema_version"] = v + 1
    return doc

src, dst = sys.argv[1], sys.argv[2]
@@READ@@
out = {key: migrate(doc) for key, doc in docs.items()}
@@WRITE@@
EOF
mkdir -p /app/out
python3 /app/migrate.py /app/data/@@SRC@@ /app/out/@@DST@@
"""

TESTS = """
import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

LAYOUT = @@LAYOUT@@
SRC, DST = @@SRC@@, @@DST@@
TARGET = @@TARGET@@
EXPECTED = @@EXPECTED@@
HIDDEN = @@HIDDEN@@
HIDDEN_EXPECTED = @@HIDDEN_EXPECTED@@


def write(path, docs):
    if LAYOUT == "dir":
        path.mkdir()
        for name, doc in docs:
            (path / name).write_text(json.dumps(doc) + "\\n")
    elif LAYOUT == "jsonl":
        path.write_text("".join(json.dumps(doc) + "\\n" for _, doc in docs))
    elif LAYOUT == "array":
        path.write_text(json.dumps([doc for _, doc in docs]))
    else:
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE records (id INTEGER PRIMARY KEY, body TEXT)")
            db.executemany("INSERT INTO records VALUES (?, ?)", [(int(n), json.dumps(d)) for n, d in docs])
        db.close()


def read(path):
    if LAYOUT == "dir":
        return [[p.name, json.loads(p.read_text())] for p in sorted(path.glob("*.json"))]
    if LAYOUT == "jsonl":
        return [[str(i), json.loads(line)] for i, line in enumerate(path.read_text().splitlines()) if line.strip()]
    if LAYOUT == "array":
        return [[str(i), doc] for i, doc in enumerate(json.loads(path.read_text()))]
    db = sqlite3.connect(path)
    try:
        return [[str(i), json.loads(body)] for i, body in db.execute("SELECT id, body FROM records ORDER BY id")]
    finally:
        db.close()


def by_key(rows):
    return {key: doc for key, doc in rows}


@pytest.fixture(scope="module")
def migrated():
    return by_key(read(Path("/app/out", DST)))


@pytest.fixture(scope="module")
def hidden(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hidden")
    write(tmp / SRC, HIDDEN)
    result = subprocess.run(["python3", "/app/migrate.py", str(tmp / SRC), str(tmp / DST)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]
    return by_key(read(tmp / DST))


def test_every_record_written(migrated):
    assert sorted(migrated) == sorted(EXPECTED)


def test_every_record_at_target_version(migrated):
    assert all(doc.get("schema_version") == TARGET for doc in migrated.values())


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_migrated_record(migrated, key):
    assert migrated.get(key) == EXPECTED[key], key


def test_script_on_hidden_records(hidden):
    assert sorted(hidden) == sorted(HIDDEN_EXPECTED)
    for key, want in HIDDEN_EXPECTED.items():
        assert hidden[key] == want, key
"""


def _v1_record(rng: random.Random, uid: int, needs: set[str], plain: list[str], i: int) -> dict:
    first = [rng.choice(FIRST_NAMES)] + ([rng.choice(FIRST_NAMES)] if i % 3 == 0 else [])
    last = rng.choice(LAST_NAMES)
    doc: dict = {"id": f"u-{uid:05d}"}
    if "split_name" in needs:
        doc["full_name"] = " ".join([*first, last])
    if "lower_email" in needs:
        doc["email"] = f"{first[0]}.{last}@{rng.choice(['Example.test', 'MAIL.test', 'corp.Test'])}"
    if "tags_to_list" in needs:
        picked = [rng.choice(WORDS) for _ in range(rng.randint(0, 4))]
        doc["tags"] = ",".join(rng.choice(["", " "]) + t + rng.choice(["", "  "]) for t in picked + picked[:1])
    if "cents_to_decimal" in needs:
        doc["balance_cents"] = [5, 12340][i] if i < 2 else rng.randint(0, 2_000_000)
    if "yesno_to_bool" in needs:
        doc["active"] = ["yes", "no"][i % 2]
    if "epoch_to_iso" in needs:
        doc["created"] = rng.randint(1_500_000_000, 1_800_000_000)
    if "nest_address" in needs:
        doc.update(street=f"{rng.randint(1, 200)} {rng.choice(WORDS).title()} St", city=rng.choice(CITIES),
                   zip=f"{rng.randint(10000, 99999)}")
    if "expand_status" in needs:
        doc["status"] = "ASC"[i % 3]
    if "phone_digits" in needs:
        doc["phone"] = f"+{rng.randint(30, 49)} ({rng.randint(10, 99)}) {rng.randint(100, 9999)}-{rng.randint(10, 99)}"
    for name in plain:
        doc[name] = (rng.choice(PLAIN[name]) if PLAIN[name] else rng.randint(0, 100) if name == "score"
                     else f"{rng.choice(WORDS)}{rng.randint(1, 99)}")
    return doc


def _chain(rng: random.Random, difficulty: int) -> tuple[list[list[Op]], int | None, list[str]]:
    """The steps (each a list of changes), the index of the step known only from examples, the plain fields."""
    n_steps = difficulty
    sizes = [2] if difficulty == 1 else [rng.randint(1, 2) for _ in range(n_steps)]
    lost = rng.randrange(n_steps) if difficulty == 3 else None
    plain = rng.sample(sorted(PLAIN), 3)
    free_plain = list(plain)
    defaults = rng.sample(DEFAULTS, len(DEFAULTS))
    kinds_left = list(KINDS)
    steps: list[list[Op]] = []
    for i, size in enumerate(sizes):
        step: list[Op] = []
        for _ in range(size):
            choices = [k for k in kinds_left if (i != lost or k in INFERABLE)
                       and (k not in ("rename", "drop") or free_plain)]
            kind = rng.choice(choices)
            if kind not in ("rename", "drop"):
                kinds_left.remove(kind)
            if kind in ("rename", "drop"):
                field = free_plain.pop(rng.randrange(len(free_plain)))
                step.append(Op(kind, field, RENAMES[field] if kind == "rename" else ""))
            elif kind == "add_default":
                new, value = defaults.pop()
                step.append(Op(kind, new=new, value=value))
            else:
                step.append(Op(kind))
        steps.append(step)
    return steps, lost, plain


def _simulate(steps: list[list[Op]], docs: list[tuple[str, dict]], mistake: Op | None = None,
              every_step_always: bool = False) -> list[tuple[str, dict]] | None:
    """Run the solution's own code fragments over ``docs``; None when it would crash."""
    out = []
    for name, doc in docs:
        doc = json.loads(json.dumps(doc))
        first = 1 if every_step_always else doc.get("schema_version", 1)
        try:
            for v in range(first, len(steps) + 1):
                for op in steps[v - 1]:
                    scope = {"doc": doc, "re": re, "datetime": datetime, "timezone": timezone}
                    exec(_code(op, op is mistake), scope)  # our own fragments, never input data
                    doc = scope["doc"]
                doc["schema_version"] = v + 1
        except (KeyError, AttributeError, TypeError, ValueError, IndexError):
            return None
        out.append((name, doc))
    return out


def _at_version(doc: dict, steps: list[list[Op]], version: int, legacy_unversioned: bool) -> dict:
    doc = dict(doc) if legacy_unversioned else {**doc, "schema_version": 1}
    for v in range(1, version):
        for op in steps[v - 1]:
            doc = _apply(op, doc)
        doc["schema_version"] = v + 1
    return doc


def _records(rng: random.Random, steps, plain, difficulty: int, n: int, first_uid: int, storage: Storage):
    """(name, stored record) and (name, expected record) for ``n`` records at mixed versions."""
    target = len(steps) + 1
    needs = {op.kind for step in steps for op in step}
    stored, expected = [], []
    uids = rng.sample(range(first_uid, first_uid + 50_000), n)
    for i, uid in enumerate(uids):
        v1 = _v1_record(rng, uid, needs, plain, i)
        version = 1 if difficulty == 1 else [*range(1, target + 1), 1][i % (target + 1)]  # every version, v1 most
        doc = _at_version(v1, steps, version, legacy_unversioned=difficulty == 3)
        name = f"{rng.choice(WORDS)}-{uid}.json" if storage.key == "dir" else str(i + 1 if storage.key == "sqlite" else i)
        stored.append((name, doc))
        expected.append((name, _at_version(v1, steps, target, False)))
    return stored, expected


def make(rng: random.Random, difficulty: int) -> Instance:
    storage = STORAGES[rng.choice(sorted(STORAGES))]
    steps, lost, plain = _chain(rng, difficulty)
    target = len(steps) + 1
    n = {1: 6, 2: 9, 3: 12}[difficulty]
    stored, expected = _records(rng, steps, plain, difficulty, n, 1, storage)
    hidden, hidden_expected = _records(rng, steps, plain, difficulty, n, 50_001, storage)

    files = {f"data/{path}": data for path, data in _store(storage, stored, rng).items()}
    changes = []
    for v, step in enumerate(steps, start=1):
        changes += [f"## v{v} -> v{v + 1}", ""]
        if v - 1 == lost:
            changes += [f"The notes for this step were lost. `/app/docs/v{v}-to-v{v + 1}/` holds records before "
                        "(`*.before.json`) and after (`*.after.json`) it; they show exactly what it does (every key of a record is shown).", ""]
            for k in range(3):
                v1 = _v1_record(rng, 90_001 + k, {op.kind for s in steps for op in s}, plain, k)
                pre = _at_version(v1, steps, v, False)
                post = _at_version(v1, steps, v + 1, False)
                files[f"docs/v{v}-to-v{v + 1}/example-{k + 1}.before.json"] = json.dumps(pre, indent=2) + "\n"
                files[f"docs/v{v}-to-v{v + 1}/example-{k + 1}.after.json"] = json.dumps(post, indent=2) + "\n"
        else:
            changes += [f"- {_describe(op)}" for op in step]
        changes += [f"- `schema_version` becomes `{v + 1}`.", ""]
    files["docs/CHANGES.md"] = "# Record schema changes\n\n" + "\n".join(changes)

    def solution(mistake: Op | None = None, every_step_always: bool = False) -> str:
        funcs = []
        for v, step in enumerate(steps, start=1):
            body = "\n".join(_code(op, op is mistake) for op in step)
            funcs.append(f"def step_{v}(doc):\n" + "".join(f"    {line}\n" for line in body.splitlines())
                         + "    return doc\n")
        funcs.append("STEPS = {" + ", ".join(f"{v}: step_{v}" for v in range(1, target)) + "}")
        script = SOLVE.replace("@@STEPS@@", "\n".join(funcs)).replace("@@READ@@", storage.read)
        script = script.replace("@@WRITE@@", storage.write).replace("@@FIRST@@", "1" if every_step_always else "version(doc)")
        return (script.replace("@@TARGET@@", str(target)).replace("@@SRC@@", storage.src)
                .replace("@@DST@@", storage.dst))

    everything = stored + hidden
    want = expected + hidden_expected
    if _simulate(steps, everything) != want:
        raise AssertionError("the reference code disagrees with the generator")  # a generator bug
    # plausible mistakes that really change the result (a mistake that changes nothing is no test)
    ops = [op for step in steps for op in step]
    mistakes = [op for op in ops if _simulate(steps, everything, mistake=op) != want]
    mistaken = rng.choice(mistakes)
    wrong = {f"{MISTAKE_NAMES[mistaken.kind]}.sh": solution(mistake=mistaken)}
    if difficulty >= 2 and _simulate(steps, everything, every_step_always=True) != want:
        wrong["wrong_ignores_record_version.sh"] = solution(every_step_always=True)
    versions = ("Every record has `schema_version` 1." if difficulty == 1 else
                "Records are at different versions (their `schema_version`); a record at an older version goes "
                "through every later step in order, one already at the newest version is kept as it is."
                + (" Legacy records have no `schema_version` key at all: they are v1." if difficulty == 3 else ""))
    instruction = f"""
`/app/data/{storage.src}` holds user records: {storage.describe.split("; ")[0].replace("SRC", storage.src)}.
Their schema changed over time; `/app/docs/CHANGES.md` lists every step from v1 to the newest version,
v{target}. {versions}

1. Write `/app/migrate.py`: `python3 /app/migrate.py SRC DST` reads records stored like that (SRC) and
   writes them, migrated to v{target}, to DST ({storage.describe.split("; ")[1]}). Each migrated record has
   exactly the keys the steps leave, with `schema_version` {target}.
2. Run it on the data: `python3 /app/migrate.py /app/data/{storage.src} /app/out/{storage.dst}`.

The tests read `/app/out/{storage.dst}` and also run your script on other records of the same kinds.
"""
    return Instance(
        instruction=instruction,
        files=files,
        solve=solution(),
        wrong=wrong,
        tests=render(TESTS, layout=storage.key, src=storage.src, dst=storage.dst, target=target,
                     expected=dict(expected), hidden=hidden, hidden_expected=dict(hidden_expected)),
        answer={"layout": storage.key, "steps": [[op.kind for op in step] for step in steps], "expected": expected},
    )


FAMILY = Family(
    name="json-migrate",
    category="data-processing",
    tags=("json", "migration", "schema", "sqlite"),
    summary="Write a migration for records of mixed schema versions: storage layout and a chain of schema "
            "changes drawn per seed; at level 3 one step is known only from examples.",
    make=make,
)
