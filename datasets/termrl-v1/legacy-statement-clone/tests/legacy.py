"""The lost statement formatter (reference). Only the tests have it."""
import csv
import datetime
import sys
from decimal import Decimal

MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def money(v):
    if v == 0:
        return "- "
    s = f"{abs(v):,.2f}"
    return f"({s})" if v < 0 else s + " "


def render(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    recs = []
    for i, r in enumerate(rows):
        d = datetime.date.fromisoformat(r["date"].strip())
        recs.append((d, i, r["account"].strip(), r["description"].strip(), Decimal(r["amount"].strip())))
    width = max([11] + [min(24, len(r[3])) for r in recs])
    accounts = sorted({r[2] for r in recs}, key=lambda a: (a.lower(), a))
    out = [f"STATEMENT {min(r[0] for r in recs).isoformat()} to {max(r[0] for r in recs).isoformat()}", ""]
    head = f"{'Date':<11}  {'Description':<{width}}  {'Amount':>13}  {'Balance':>13}"
    grand = Decimal(0)
    for acc in accounts:
        items = sorted((r for r in recs if r[2] == acc), key=lambda r: (r[0], r[1]))
        out += [f"== {acc.upper()} ==", head, "-" * len(head)]
        bal = Decimal(0)
        for d, _, _, desc, amt in items:
            bal += amt
            if len(desc) > width:
                desc = desc[:width - 1] + "~"
            out.append(f"{d.day:02d} {MONTHS[d.month - 1]} {d.year}  {desc:<{width}}  {money(amt):>13}  {money(bal):>13}")
        n = len(items)
        out.append(f"   {n} item{'s' if n != 1 else ''}, subtotal {money(bal).strip()}")
        out.append("")
        grand += bal
    out.append(f"GRAND TOTAL {money(grand).strip()} over {len(accounts)} account{'s' if len(accounts) != 1 else ''}")
    return "".join(line.rstrip() + "\n" for line in out)


if __name__ == "__main__":
    sys.stdout.write(render(sys.argv[1]))
