#!/bin/bash
# Reference: split into statements and fields, parse :60F:/:61:/:86:/:62F:, check balances.
set -euo pipefail
cat > /app/mt940.py <<'PY'
#!/usr/bin/env python3
"""mt940.py STATEMENTS.sta OUT.csv: MT940 statements -> one CSV row per transaction; exit 1 if unbalanced."""
import csv
import re
import sys
from datetime import date

HEADER = ["account", "statement", "booking_date", "value_date", "amount", "currency", "type", "reference",
          "bank_reference", "counterparty", "purpose"]
FIELD = re.compile(r":(\d{2}[A-Z]?):(.*)")
BAL = re.compile(r"([CD])(\d{6})([A-Z]{3})(\d+,\d{0,2})")
L61 = re.compile(r"(\d{6})(\d{4})?(RC|RD|C|D)([A-Z])?(\d+,\d{0,2})([NFS][A-Z0-9]{3})(.*?)(?://(.*))?")


def cents(s):
    units, frac = s.split(",")
    return int(units) * 100 + int((frac + "00")[:2])


def money(c):
    return f"{'-' if c < 0 else ''}{abs(c) // 100}.{abs(c) % 100:02d}"


def yymmdd(s):
    return date(2000 + int(s[:2]), int(s[2:4]), int(s[4:6]))


def booking(value, mmdd):
    if not mmdd:
        return value
    cands = []
    for y in (value.year - 1, value.year, value.year + 1):
        try:
            cands.append(date(y, int(mmdd[:2]), int(mmdd[2:])))
        except ValueError:
            pass
    return min(cands, key=lambda d: abs((d - value).days))


def balance(s):
    m = BAL.match(s)
    c = cents(m.group(4))
    return (-c if m.group(1) == "D" else c), m.group(3)


def parse86(text):
    if not re.match(r"\d{3}\?", text):
        return "", text
    sub = {}
    for m in re.finditer(r"\?(\d{2})([^?]*)", text):
        sub.setdefault(m.group(1), m.group(2))
    purpose = "".join(sub.get(str(k), "") for k in range(20, 30))
    return sub.get("32", "") + sub.get("33", ""), purpose


def statements(lines):
    fields = []
    for line in lines:
        if line.strip() == "-":
            if fields:
                yield fields
            fields = []
            continue
        m = FIELD.match(line)
        if m:
            fields.append([m.group(1), m.group(2), []])
        elif fields:
            fields[-1][2].append(line)
    if fields:
        yield fields


def main(src, dst):
    with open(src, encoding="latin-1", newline="") as f:
        lines = re.split(r"\r\n|\n|\r", f.read())
    rows, bad = [], []
    for st in statements(lines):
        account = seq = cur = ""
        opening = closing = None
        total = 0
        pending = None
        for tag, first, more in st:
            if tag == "25":
                account = first.strip()
            elif tag == "28C":
                seq = first.strip()
            elif tag in ("60F", "60M"):
                opening, cur = balance(first)
            elif tag in ("62F", "62M"):
                closing, _ = balance(first)
            elif tag == "61":
                m = L61.fullmatch(first.strip())
                vd, entry, mark, _funds, amt, ttype, ref, bref = m.groups()
                c = cents(amt)
                signed = c if mark in ("C", "RD") else -c
                total += signed
                value = yymmdd(vd)
                pending = [account, seq, booking(value, entry).isoformat(), value.isoformat(), money(signed), cur,
                           ttype, ref, bref or "", "", ""]
                rows.append(pending)
            elif tag == "86" and pending is not None:
                pending[9], pending[10] = parse86(first + "".join(more))
                pending = None
        if opening is None or closing is None or opening + total != closing:
            bad.append(f"unbalanced: {account} {seq}")
    with open(dst, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        w.writerows(rows)
    for b in bad:
        print(b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
PY
chmod +x /app/mt940.py
