import csv
import datetime as dt
import hashlib
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

OUT = Path("/app/reconciliation.json")
SHA = {
    "/app/bank.csv": "e3f201b79abfe3cc1488b7ebea5c63638731f21a708db6f1f9dc3abacd4cbc2d",
    "/app/books.csv": "b41bdf15b370c4ff0575879995e162b72c08c3cd2b3333d9ebac70fff1043b7a",
}


def _c(text):
    t = text.strip().replace(",", "")
    sign = -1 if t.startswith("(") else 1
    return sign * int(Decimal(t.strip("()")) * 100)


def _expected():
    bank = []
    for r in csv.DictReader(open("/app/bank.csv", newline="")):
        m = re.search(r"REF:([A-Za-z0-9]+)", r["description"])
        day = dt.datetime.strptime(r["date"], "%d/%m/%Y").date()
        bank.append((r["bank_id"], day, _c(r["amount"]), m.group(1).upper() if m else None))
    books = {}
    for r in csv.DictReader(open("/app/books.csv", newline="")):
        amt = _c(r["debit"]) if r["debit"].strip() else -_c(r["credit"])
        books[r["entry_id"]] = (dt.date.fromisoformat(r["date"]), amt, r["ref"].strip().upper())
    free = dict(books)
    done = set()
    matched, mism = [], []
    for bid, day, amt, ref in bank:
        if not ref:
            continue
        hit = [k for k, v in books.items() if v[2] == ref]
        if hit:
            k = hit[0]
            done.add(bid)
            free.pop(k)
            if books[k][1] == amt:
                matched.append([bid, k])
            else:
                mism.append([bid, k, amt, books[k][1]])
    for bid, day, amt, ref in sorted(bank, key=lambda x: (x[1], x[0])):
        if bid in done:
            continue
        best = None
        for k, (d2, a2, _) in free.items():
            if a2 != amt or abs((d2 - day).days) > 3:
                continue
            key = (abs((d2 - day).days), d2, k)
            if best is None or key < best[0]:
                best = (key, k)
        if best:
            done.add(bid)
            free.pop(best[1])
            matched.append([bid, best[1]])
    ub = sorted(b[0] for b in bank if b[0] not in done)
    ue = sorted(free)
    return {
        "matched": sorted(matched),
        "mismatched": sorted(mism),
        "unmatched_bank": ub,
        "unmatched_books": ue,
        "unmatched_bank_total_cents": sum(b[2] for b in bank if b[0] not in done),
        "unmatched_books_total_cents": sum(v[1] for v in free.values()),
    }


EXP = _expected()


@pytest.fixture(scope="module")
def out():
    assert OUT.is_file(), "reconciliation.json missing"
    return json.loads(OUT.read_text())


def test_keys(out):
    assert sorted(out) == sorted(EXP)


def test_reference_mismatches(out):
    assert [list(x) for x in out["mismatched"]] == EXP["mismatched"]
    assert len(EXP["mismatched"]) > 0


def test_matched_pairs(out):
    assert [list(x) for x in out["matched"]] == EXP["matched"]


def test_unmatched_lists(out):
    assert out["unmatched_bank"] == EXP["unmatched_bank"]
    assert out["unmatched_books"] == EXP["unmatched_books"]


def test_totals(out):
    for k in ("unmatched_bank_total_cents", "unmatched_books_total_cents"):
        assert isinstance(out[k], int) and not isinstance(out[k], bool), k
        assert out[k] == EXP[k], k


def test_partition_is_complete(out):
    bank_ids = {r["bank_id"] for r in csv.DictReader(open("/app/bank.csv", newline=""))}
    seen = [m[0] for m in out["matched"]] + [m[0] for m in out["mismatched"]] + out["unmatched_bank"]
    assert sorted(seen) == sorted(bank_ids)


def test_inputs_untouched():
    for p, h in SHA.items():
        assert hashlib.sha256(Path(p).read_bytes()).hexdigest() == h, p
