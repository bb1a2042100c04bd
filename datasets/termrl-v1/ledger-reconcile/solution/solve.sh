#!/bin/bash
set -euo pipefail
cat > /app/reconcile.py <<'PY'
import csv, json, re, datetime as dt

def cents(s):
    s = s.strip().replace(",", "")
    neg = s.startswith("(") and s.endswith(")")
    s = s.strip("()")
    whole, _, frac = s.partition(".")
    v = int(whole) * 100 + int((frac + "00")[:2])
    return -v if neg else v

bank = []
with open("/app/bank.csv", newline="") as f:
    for r in csv.DictReader(f):
        d = dt.datetime.strptime(r["date"], "%d/%m/%Y").date()
        m = re.search(r"REF:([A-Za-z0-9]+)", r["description"])
        bank.append(dict(id=r["bank_id"], date=d, amt=cents(r["amount"]), ref=m.group(1) if m else None))
books = []
with open("/app/books.csv", newline="") as f:
    for r in csv.DictReader(f):
        d = dt.date.fromisoformat(r["date"])
        amt = cents(r["debit"]) if r["debit"].strip() else -cents(r["credit"])
        books.append(dict(id=r["entry_id"], date=d, amt=amt, ref=r["ref"].strip()))
used_bank, used_book = set(), set()
matched, mism = [], []
byref = {b["ref"].upper(): b for b in books if b["ref"]}
for b in bank:
    if b["ref"] and b["ref"].upper() in byref:
        e = byref[b["ref"].upper()]
        used_bank.add(b["id"]); used_book.add(e["id"])
        if e["amt"] == b["amt"]:
            matched.append([b["id"], e["id"]])
        else:
            mism.append([b["id"], e["id"], b["amt"], e["amt"]])
for b in sorted(bank, key=lambda x: (x["date"], x["id"])):
    if b["id"] in used_bank:
        continue
    cands = [e for e in books if e["id"] not in used_book and e["amt"] == b["amt"] and abs((e["date"] - b["date"]).days) <= 3]
    if not cands:
        continue
    e = min(cands, key=lambda e: (abs((e["date"] - b["date"]).days), e["date"], e["id"]))
    used_bank.add(b["id"]); used_book.add(e["id"])
    matched.append([b["id"], e["id"]])
ub = sorted(b["id"] for b in bank if b["id"] not in used_bank)
ue = sorted(e["id"] for e in books if e["id"] not in used_book)
out = dict(
    matched=sorted(matched), mismatched=sorted(mism),
    unmatched_bank=ub, unmatched_books=ue,
    unmatched_bank_total_cents=sum(b["amt"] for b in bank if b["id"] in set(ub)),
    unmatched_books_total_cents=sum(e["amt"] for e in books if e["id"] in set(ue)),
)
with open("/app/reconciliation.json", "w") as f:
    json.dump(out, f, indent=1)
PY
python3 /app/reconcile.py
