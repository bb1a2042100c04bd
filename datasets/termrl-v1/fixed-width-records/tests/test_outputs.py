import csv
import json
from pathlib import Path

import pytest

TRUTH = json.loads(Path("/tests/truth.json").read_text(encoding="utf-8"))
FIELDS = ["acct_no", "name", "branch", "opened", "balance", "last_txn", "tier"]


@pytest.fixture(scope="module")
def rows():
    p = Path("/app/accounts.csv")
    assert p.is_file()
    return list(csv.reader(p.read_text(encoding="utf-8").splitlines()))


def test_header(rows):
    assert rows[0] == FIELDS


def test_record_count(rows):
    assert len(rows) - 1 == len(TRUTH)


@pytest.mark.parametrize("field", FIELDS)
def test_field_values(rows, field):
    k = FIELDS.index(field)
    got = [r[k] for r in rows[1:]]
    exp = [t[field] for t in TRUTH]
    bad = [(i, g, e) for i, (g, e) in enumerate(zip(got, exp)) if g != e]
    assert not bad, bad[:5]


def test_latin1_names_decoded(rows):
    names = {r[1] for r in rows[1:]}
    assert any("Ü" in n for n in names)
