#!/bin/bash
set -euo pipefail
cat > /app/ledger.py <<'PY'
import json
import re
import sys
from decimal import ROUND_HALF_EVEN, Decimal

ROOTS = ("Assets", "Liabilities", "Equity", "Income", "Expenses")
ACC = r"(?:Assets|Liabilities|Equity|Income|Expenses)(?::[A-Z][A-Za-z0-9-]*)+"
NUM = r"-?\d+(?:\.\d+)?"
CUR = r"[A-Z]{3,5}"
TXN_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})\s+[*!](?:\s+(.*))?$")
OPEN_RE = re.compile(rf"^(\d{{4}}-\d{{2}}-\d{{2}})\s+open\s+({ACC})\s*$")
BAL_RE = re.compile(rf"^(\d{{4}}-\d{{2}}-\d{{2}})\s+balance\s+({ACC})\s+({NUM})\s+({CUR})\s*$")
PRICE_RE = re.compile(rf"^(\d{{4}}-\d{{2}}-\d{{2}})\s+price\s+({CUR})\s+({NUM})\s+({CUR})\s*$")
POST_RE = re.compile(rf"^\s+({ACC})(?:\s+({NUM})\s+({CUR})(?:\s+@\s+({NUM})\s+({CUR}))?)?\s*(?:;.*)?$")
TOL = Decimal("0.005")
Q = Decimal("0.01")


def parse(text):
    entries, errors = [], []
    cur = None
    for n, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip() or line.lstrip().startswith((";", "#")):
            if not line.strip():
                cur = None
            continue
        if line[0] in " \t":
            m = POST_RE.match(line)
            if cur is None or not m:
                errors.append((n, "parse"))
                if cur is not None:
                    cur["bad"] = True
                continue
            acc, amt, c, pr, pc = m.groups()
            cur["postings"].append((acc, Decimal(amt) if amt else None, c, Decimal(pr) if pr else None, pc))
            continue
        cur = None
        m = TXN_RE.match(line)
        if m:
            cur = {"kind": "txn", "date": m.group(1), "line": n, "postings": [], "bad": False, "prio": 2}
            entries.append(cur)
            continue
        m = OPEN_RE.match(line)
        if m:
            entries.append({"kind": "open", "date": m.group(1), "line": n, "acc": m.group(2), "prio": 0})
            continue
        m = BAL_RE.match(line)
        if m:
            entries.append({"kind": "balance", "date": m.group(1), "line": n, "acc": m.group(2),
                            "amt": Decimal(m.group(3)), "cur": m.group(4), "prio": 1})
            continue
        m = PRICE_RE.match(line)
        if m:
            entries.append({"kind": "price", "date": m.group(1), "line": n, "cur": m.group(2),
                            "amt": Decimal(m.group(3)), "to": m.group(4), "prio": 2})
            continue
        errors.append((n, "parse"))
    return entries, errors


def run(text):
    entries, errors = parse(text)
    entries.sort(key=lambda e: (e["date"], e["prio"], e["line"]))
    opened = {}
    bal = {}
    prices = {}
    for e in entries:
        k = e["kind"]
        if k == "open":
            if e["acc"] in opened:
                errors.append((e["line"], "duplicate_open"))
            else:
                opened[e["acc"]] = e["date"]
        elif k == "price":
            prices[(e["cur"], e["to"])] = e["amt"]
        elif k == "balance":
            total = sum((v.get(e["cur"], Decimal(0)) for a, v in bal.items()
                         if a == e["acc"] or a.startswith(e["acc"] + ":")), Decimal(0))
            if abs(total - e["amt"]) >= TOL:
                errors.append((e["line"], "balance_failed"))
        else:
            if e["bad"]:
                continue
            ps = e["postings"]
            if len(ps) < 2:
                errors.append((e["line"], "parse"))
                continue
            if any(p[0] not in opened or opened[p[0]] > e["date"] for p in ps):
                errors.append((e["line"], "unopened_account"))
                continue
            resid = {}
            elided = [p for p in ps if p[1] is None]
            for acc, amt, c, pr, pc in ps:
                if amt is None:
                    continue
                if pr is not None:
                    resid[pc] = resid.get(pc, Decimal(0)) + amt * pr
                else:
                    resid[c] = resid.get(c, Decimal(0)) + amt
            nonzero = {c: v for c, v in resid.items() if abs(v) >= TOL}
            if elided:
                if len(elided) > 1 or len(nonzero) != 1:
                    errors.append((e["line"], "ambiguous_elision"))
                    continue
                (c, v), = nonzero.items()
                ps = [p if p[1] is not None else (p[0], -v, c, None, None) for p in ps]
            elif nonzero:
                errors.append((e["line"], "unbalanced"))
                continue
            for acc, amt, c, _, _ in ps:
                d = bal.setdefault(acc, {})
                d[c] = d.get(c, Decimal(0)) + amt
    out_bal = {}
    for acc in sorted(bal):
        cs = {c: str(v.quantize(Q, ROUND_HALF_EVEN)) for c, v in sorted(bal[acc].items())
              if v.quantize(Q, ROUND_HALF_EVEN) != 0}
        if cs:
            out_bal[acc] = cs
    worth = Decimal(0)
    unpriced = set()
    for acc, cs in bal.items():
        if not acc.startswith(("Assets:", "Liabilities:")):
            continue
        for c, v in cs.items():
            if c == "USD":
                worth += v
            elif (c, "USD") in prices:
                worth += v * prices[(c, "USD")]
            elif v != 0:
                unpriced.add(c)
    return {
        "errors": [{"line": n, "kind": k} for n, k in sorted(errors)],
        "balances": out_bal,
        "net_worth_usd": str(worth.quantize(Q, ROUND_HALF_EVEN)),
        "unpriced": sorted(unpriced),
    }


if __name__ == "__main__":
    res = run(open(sys.argv[1], encoding="utf-8").read())
    with open(sys.argv[2], "w") as f:
        json.dump(res, f, indent=2)
PY
