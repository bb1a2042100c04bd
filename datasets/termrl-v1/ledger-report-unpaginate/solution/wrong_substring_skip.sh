#!/bin/bash
# Plausible but wrong: forward/total/end lines are recognised by searching the line for their words, which
# also drops real transactions of customers or descriptions that contain them (TOTAL FITNESS LTD, ...).
set -euo pipefail
cat > /app/unpage.py <<'PY'
#!/usr/bin/env python3
"""unpage.py REPORT.txt OUT.csv: customer-ledger print report -> one CSV row per transaction."""
import csv
import re
import sys
from datetime import datetime
from decimal import Decimal

RULER = re.compile(r"^-{8} -{26} -{8} -{10} -{18} -{15} -{15}$")
NOT_TXN = {"BROUGHT FORWARD", "CARRIED FORWARD", "ACCOUNT TOTAL", "REPORT TOTAL"}


def amount(s):
    s = s.strip().replace(",", "")
    if not s:
        return Decimal(0)
    return -Decimal(s[:-1]) if s.endswith("-") else Decimal(s)


def main(src, dst):
    rows, cur = [], None
    acct = name = None
    in_body = False
    for raw in open(src, encoding="utf-8").read().split("\n"):
        if raw.startswith("\f"):
            in_body = False
            raw = raw[1:]
        if not in_body:
            in_body = bool(RULER.match(raw))
            continue
        line = raw.ljust(106)
        f_acct, f_name, f_date = line[0:8].strip(), line[9:35].strip(), line[36:44].strip()
        f_doc, f_desc = line[45:55].strip(), line[56:74].strip()
        f_deb, f_cred = line[75:90], line[91:106]
        if not line.strip() or "END OF REPORT" in line or any(k in line for k in NOT_TXN):
            continue
        if f_date:
            if f_acct:
                acct = f_acct
                if f_name != "...CONT'D":
                    name = f_name
            d = datetime.strptime(f_date, "%d/%m/%y").date().isoformat()
            cur = [acct, name, d, f_doc, f_desc, amount(f_deb) - amount(f_cred)]
            rows.append(cur)
        elif f_desc and not f_acct and not f_name:
            cur[4] += " " + f_desc
        else:
            raise ValueError(f"unexpected line: {raw!r}")
    with open(dst, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["account", "customer", "date", "doc_no", "description", "amount"])
        for r in rows:
            w.writerow(r[:5] + [f"{r[5]:.2f}"])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/unpage.py
