#!/bin/bash
# Reference: the retired normaliser's mapping, recovered from the history (five event shapes).
set -euo pipefail
cat > /app/normalize.py <<'PY'
#!/usr/bin/env python3
"""normalize.py EVENTS.jsonl OUT.csv: order events of every app generation -> canonical order rows."""
import csv
import json
import sys
from datetime import datetime, timezone

CANON = ["order_id", "placed_at", "customer_email", "customer_name", "amount_cents", "currency", "express", "items"]


def cents(s):
    units, _, frac = str(s).partition(".")
    return int(units) * 100 + int((frac + "00")[:2])


def placed_at(ev):
    if "ts_ms" in ev:
        dt = datetime.fromtimestamp(ev["ts_ms"] // 1000, tz=timezone.utc)
    elif isinstance(ev["ts"], int):
        dt = datetime.fromtimestamp(ev["ts"], tz=timezone.utc)
    else:
        dt = datetime.fromisoformat(ev["ts"].replace("Z", "+00:00")).astimezone(timezone.utc)
    return dt.strftime("%Y-%m-%d %H:%M:%S")


def row(ev):
    cust = ev.get("customer") or {}
    email = (ev.get("customer_email") or cust.get("email") or "").strip().lower()
    if not email:
        return None
    oid = ev["orderId"] if "orderId" in ev else int(str(ev["order_id"]).removeprefix("ORD-"))
    items = ev.get("items")
    if items is not None:
        amount = sum(i["qty"] * cents(i["price"]) for i in items)
    elif "amount_cents" in ev:
        amount = ev["amount_cents"]
    elif isinstance(ev["amount"], int):
        amount = ev["amount"]
    else:
        amount = cents(ev["amount"])
    if "express" in ev:
        express = ev["express"] in (True, "Y")
    else:
        express = (ev.get("shipping") or {}).get("method") in ("express", "next_day")
    return {"order_id": str(int(oid)), "placed_at": placed_at(ev), "customer_email": email,
            "customer_name": (ev.get("customer_name") or cust.get("name") or "").strip(),
            "amount_cents": str(amount), "currency": (ev.get("currency") or "EUR").upper(),
            "express": "1" if express else "0", "items": str(sum(i["qty"] for i in items)) if items is not None else ""}


def main(src, dst):
    rows, seen = {}, set()
    with open(src, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line in seen:
                continue
            seen.add(line)
            r = row(json.loads(line))
            if r:
                rows[int(r["order_id"])] = r
    with open(dst, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, CANON, lineterminator="\n")
        w.writeheader()
        w.writerows(rows[k] for k in sorted(rows))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/normalize.py
