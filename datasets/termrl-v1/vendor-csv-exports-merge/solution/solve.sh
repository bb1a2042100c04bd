#!/bin/bash
# Reference: per file: decode, find the header row and its delimiter, map the columns, normalise the values;
# then keep the last version of every order and sort.
set -euo pipefail
cat > /app/merge_exports.py <<'PY'
#!/usr/bin/env python3
"""merge_exports.py OUT.csv EXPORT.csv... -> one normalised order table."""
import csv
import io
import os
import re
import sys
from datetime import date, datetime

SYN = {
    "order_id": ["order_id", "order id", "order no", "order number", "bestellnummer"],
    "order_date": ["order_date", "date", "order date", "datum"],
    "customer": ["customer", "customer name", "client", "kunde"],
    "amount": ["amount", "total", "betrag", "amount (gross)"],
    "currency": ["currency", "cur", "währung"],
    "note": ["note", "notes", "comment", "bemerkung"],
}
NAME_TO_KEY = {n: k for k, names in SYN.items() for n in names}
SYMBOLS = {"€": "EUR", "$": "USD", "£": "GBP"}
MONTHS = {m: i for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)}


def decode(data):
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252")


def find_header(text):
    lines = text.splitlines()
    for i, line in enumerate(lines):
        for d in (",", ";", "\t", "|"):
            names = next(csv.reader([line], delimiter=d))
            keys = [NAME_TO_KEY.get(n.strip().lower()) for n in names]
            if "order_id" in keys and "amount" in keys:
                return i, d
    raise SystemExit("no header row found")


def parse_date(s):
    s = s.strip()
    for fmt in ("%Y-%m-%d", "%d.%m.%Y", "%m/%d/%Y", "%Y%m%d"):
        try:
            return datetime.strptime(s, fmt).date()
        except ValueError:
            pass
    m = re.fullmatch(r"(\d{1,2}) ([A-Za-z]{3}) (\d{4})", s)
    return date(int(m.group(3)), MONTHS[m.group(2).lower()], int(m.group(1)))


def parse_amount(s):
    s = s.strip()
    cur = None
    for sym, code in SYMBOLS.items():
        if sym in s:
            cur, s = code, s.replace(sym, "")
    m = re.search(r"[A-Za-z]{3}", s)
    if m:
        cur, s = m.group(0).upper(), s.replace(m.group(0), "")
    s = s.strip()
    neg = s.startswith("-") or (s.startswith("(") and s.endswith(")"))
    s = s.strip("-() ")
    m = re.search(r"[.,](\d{1,2})$", s)
    frac = ""
    if m:
        frac, s = m.group(1), s[:m.start()]
    units = re.sub(r"[.,' ]", "", s)
    cents = int(units or "0") * 100 + int((frac + "00")[:2])
    return (-cents if neg else cents), cur


def rows_of(path):
    with open(path, "rb") as f:
        text = decode(f.read())
    start, delim = find_header(text)
    text_from_header = text[sum(len(l) for l in text.splitlines(keepends=True)[:start]):]
    reader = csv.reader(io.StringIO(text_from_header, newline=""), delimiter=delim)
    header = next(reader)
    index = {}
    for i, n in enumerate(header):
        k = NAME_TO_KEY.get(n.strip().lower())
        if k and k not in index:
            index[k] = i
    for rec in reader:
        get = lambda k: rec[index[k]] if k in index and index[k] < len(rec) else ""
        oid = get("order_id").strip()
        if not oid:
            continue
        cents, cur = parse_amount(get("amount"))
        if get("currency").strip():
            cur = get("currency").strip().upper()
        sign = "-" if cents < 0 else ""
        yield [os.path.basename(path), oid, parse_date(get("order_date")).isoformat(), " ".join(get("customer").split()),
               f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}", cur or "EUR", " ".join(get("note").split())]


def main(out, paths):
    final = {}
    for p in paths:
        for row in rows_of(p):
            final[row[1]] = row
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["source_file", "order_id", "order_date", "customer", "amount", "currency", "note"])
        w.writerows(sorted(final.values(), key=lambda r: (r[2], r[1])))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
PY
chmod +x /app/merge_exports.py
