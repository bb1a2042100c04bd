"""text-extract: pull exact identifiers out of generated notes, ignoring near-miss decoys.

Level 2 spreads the notes over several files and adds amounts to total; level 3 nests the files
and voids some identifiers (lines starting with ``VOID``).
"""

from __future__ import annotations

import random

from termrl.tasks.generators._common import FIRST_NAMES, WORDS, Family, Instance, python_script, render

PREFIXES = ["INV", "ORD", "TKT", "REQ", "PO", "CASE", "RMA"]
FILLER = ["please check", "as discussed", "see attached", "follow up on", "customer asked about",
          "escalated", "closed", "re-opened", "waiting for", "duplicate of"]

SOLVE = """
import re
from decimal import Decimal
from pathlib import Path
ID = re.compile(@@PATTERN@@)
AMOUNT = re.compile(r"(?<![\\w.])EUR (\\d{1,3}(?:,\\d{3})*\\.\\d{2})(?![\\d,])")
ids, voided, total = [], set(), Decimal("0")
for path in sorted(Path("/app/notes").rglob("*.txt")):
    for line in path.read_text().splitlines():
        found = ID.findall(line)
        if line.startswith("VOID"):
            voided.update(found)
            continue
        ids += found
        total += sum((Decimal(a.replace(",", "")) for a in AMOUNT.findall(line)), Decimal("0"))
keep = sorted(set(ids) - voided)
Path("/app/ids.txt").write_text("".join(i + "\\n" for i in keep))
if @@WITH_TOTAL@@:
    Path("/app/total.txt").write_text(f"{total:.2f}\\n")
"""

TOTAL_TEST = """

def test_total():
    assert Path("/app/total.txt").read_text().strip() == TOTAL
"""

TOKEN_TEST = """

def test_ids_are_whole_tokens(lines):
    assert all(len(i.split("-")) == 3 and len(i.split("-")[1]) == 4 for i in lines)
"""

TESTS = """
from pathlib import Path

import pytest

IDS = @@IDS@@
TOTAL = @@TOTAL@@


@pytest.fixture(scope="module")
def lines():
    return Path("/app/ids.txt").read_text().splitlines()


def test_every_id_found(lines):
    assert not set(IDS) - set(lines), sorted(set(IDS) - set(lines))


def test_no_decoys_or_extras(lines):
    assert not set(lines) - set(IDS), sorted(set(lines) - set(IDS))


def test_sorted_unique(lines):
    assert lines == sorted(set(lines))


def test_exact_file():
    assert Path("/app/ids.txt").read_text() == "".join(i + "\\n" for i in IDS)

"""


def _sentence(rng: random.Random, token: str) -> str:
    return f"{rng.choice(FIRST_NAMES)}: {rng.choice(FILLER)} {token} ({rng.choice(WORDS)})."


def make(rng: random.Random, difficulty: int) -> Instance:
    prefix = rng.choice(PREFIXES)
    pattern = rf"\b{prefix}-\d{{4}}-[A-Z]{{2}}\b"
    n_files = {1: 1, 2: 3, 3: 5}[difficulty]
    real = [f"{prefix}-{rng.randint(0, 9999):04d}-{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}"
            for _ in range({1: 8, 2: 14, 3: 20}[difficulty])]

    def decoy() -> str:
        n, l2 = f"{rng.randint(0, 9999):04d}", "".join(rng.choice("ABCDEFGHJK") for _ in range(2))
        return rng.choice([f"X{prefix}-{n}-{l2}", f"{prefix}-{n}-{l2}C", f"{prefix}-{n}-{l2}9", f"{prefix}-{n[:3]}-{l2}",
                           f"{prefix.lower()}-{n}-{l2}", f"{prefix}-{n}-{l2.lower()}", f"{prefix}_{n}_{l2}"])

    notes: list[list[str]] = [[] for _ in range(n_files)]
    voided: list[str] = []
    total_cents = 0
    for i, ident in enumerate(real + real[: len(real) // 3]):  # some ids repeat
        notes[rng.randrange(n_files)].append(_sentence(rng, ident))
    for i in range({1: 6, 2: 10, 3: 14}[difficulty]):
        # The first decoys glue a new id-shaped text inside a longer token: a pattern without \\b takes it.
        fresh = f"{prefix}-{rng.randint(0, 9999):04d}-Q{rng.choice('ABCDEFGHJK')}"  # real ids have no Q
        token = [f"X{fresh}", f"{fresh}Z"][i] if i < 2 else decoy()
        notes[rng.randrange(n_files)].append(_sentence(rng, token))
    if difficulty >= 2:
        for _ in range(rng.randint(5, 9)):
            cents = rng.randint(100, 2_500_000)
            total_cents += cents
            amount = f"{cents // 100:,}.{cents % 100:02d}"
            notes[rng.randrange(n_files)].append(f"{rng.choice(FIRST_NAMES)} paid EUR {amount} for {rng.choice(WORDS)}.")
        notes[0].append(f"Draft only: EUR {rng.randint(1, 99)},{rng.randint(0, 9)}5 (not a valid amount).")
    if difficulty == 3:
        for ident in rng.sample(real[: len(real) // 2], 2):
            voided.append(ident)
            notes[rng.randrange(n_files)].append(f"VOID {ident} entered by mistake")
    for page in notes:
        rng.shuffle(page)
    names = [f"{rng.choice(WORDS)}-{i}.txt" for i in range(n_files)]
    folders = ["", "archive/", "archive/2025/", "team/", "team/old/"]
    files = {f"notes/{folders[i] if difficulty == 3 else ''}{name}": "\n".join(page) + "\n"
             for i, (name, page) in enumerate(zip(names, notes))}

    ids = sorted(set(real) - set(voided))
    total = f"{total_cents // 100}.{total_cents % 100:02d}" if difficulty >= 2 else None
    location = ("`/app/notes/` (one file)" if difficulty == 1 else "`/app/notes/*.txt`" if difficulty == 2
                else "the `.txt` files anywhere under `/app/notes/`")
    rules = [f"An id is `{prefix}-`, exactly 4 digits, `-`, exactly 2 capital letters, as a whole token: not "
             f"preceded or followed by a letter, digit or underscore (`X{prefix}-1234-AB`, `{prefix}-1234-ABC`, "
             f"`{prefix.lower()}-1234-ab` and `{prefix}-123-AB` are not ids)."]
    if difficulty == 3:
        rules.append("A line starting with `VOID` cancels every id on it: leave those ids out entirely, even where "
                     "they appear elsewhere.")
    outputs = ["`/app/ids.txt`: every distinct id, sorted, one per line (with a final newline)."]
    if difficulty >= 2:
        outputs.append("`/app/total.txt`: the sum of all amounts written `EUR 1,234.50` (comma thousands separators, "
                       "exactly two decimals; anything else, like `EUR 12,5`, is not an amount), as a plain number "
                       "with two decimals and no separators, e.g. `15023.75`."
                       + (" Amounts on `VOID` lines do not count." if difficulty == 3 else ""))
    instruction = f"""
Support notes are in {location}. Extract from them:

{chr(10).join(f"- {o}" for o in outputs)}

{chr(10).join(f"- {r}" for r in rules)}
"""
    good = python_script(render(SOLVE, pattern=pattern, with_total=difficulty >= 2))
    loose = python_script(render(SOLVE, pattern=pattern.replace(r"\b", ""), with_total=difficulty >= 2))
    tests = render(TESTS + (TOTAL_TEST if total else TOKEN_TEST), ids=ids, total=total)
    return Instance(
        instruction=instruction,
        files=files,
        solve=good,
        wrong={"wrong_no_word_boundaries.sh": loose},
        tests=tests,
        answer={"ids": ids, "total": total},
    )


FAMILY = Family(
    name="text-extract",
    category="text-processing",
    tags=("regex", "grep", "text"),
    summary="Extract exact ids (and amounts) from generated notes, rejecting near-miss decoys.",
    make=make,
)
