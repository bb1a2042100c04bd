"""Order events written by five generations of the shop app (no version field), and the canonical rows the
retired normaliser produced for them (test side only; expected rows come from the generated orders)."""
import csv
import io
import json
import random
from datetime import datetime, timedelta, timezone

FIRST = ["Anna", "Ben", "Chloé", "Dario", "Eszter", "Farid", "Gül", "Hiro", "Ines", "José"]
LAST = ["Berg", "Costa", "Dubois", "Eriksen", "Fischer", "García", "Hansen", "Ivanov", "Jäger", "Kim"]
CANON = ["order_id", "placed_at", "customer_email", "customer_name", "amount_cents", "currency", "express", "items"]


def order(rng, oid, t):
    fn, ln = rng.choice(FIRST), rng.choice(LAST)
    items = [{"sku": f"SKU-{rng.randint(1, 999):03d}", "qty": rng.randint(1, 4), "cents": rng.randint(50, 20000)}
             for _ in range(rng.randint(1, 4))]
    return {"id": oid, "t": t, "email": f"{fn[0].lower()}.{ln.lower()}{rng.randint(1, 99)}@example.com".replace("é", "e").replace("ä", "a").replace("í", "i").replace("ü", "u"),
            "name": f"{fn} {ln}", "currency": rng.choice(["EUR", "EUR", "USD", "GBP"]),
            "method": rng.choice(["standard", "standard", "express", "next_day", "pickup"]),
            "items": items, "amount": sum(i["qty"] * i["cents"] for i in items)}


def dec(c):
    return f"{c // 100}.{c % 100:02d}"


def render(rng, o, v):
    """-> (event dict, expected canonical row)."""
    t = o["t"]
    email_variant = rng.choice([o["email"], o["email"].upper(), " " + o["email"], o["email"].capitalize() + " "])
    express = o["method"] in ("express", "next_day")
    row = {"order_id": str(o["id"]), "placed_at": t.strftime("%Y-%m-%d %H:%M:%S"), "customer_email": o["email"],
           "customer_name": o["name"], "amount_cents": str(o["amount"]), "currency": o["currency"],
           "express": "1" if express else "0", "items": ""}
    if v == 1:
        if o["method"] == "next_day":   # v1 only knew express or not
            row["express"] = "1"
        ev = {"orderId": o["id"], "ts": int(t.timestamp()), "amount": o["amount"], "currency": o["currency"],
              "customer": {"name": o["name"], "email": email_variant}, "express": "Y" if express else "N"}
    elif v == 2:
        ev = {"order_id": f"{o['id']:08d}", "ts": t.strftime("%Y-%m-%dT%H:%M:%SZ"), "amount_cents": o["amount"],
              "currency": o["currency"].lower(), "customer_name": o["name"], "customer_email": email_variant,
              "express": express}
    elif v == 3:
        ev = {"order_id": str(o["id"]), "ts": t.strftime("%Y-%m-%dT%H:%M:%SZ"), "amount": dec(o["amount"]),
              "currency": o["currency"], "customer_name": "  " + o["name"].upper() + " ",
              "customer_email": email_variant, "shipping": {"method": o["method"] if o["method"] != "next_day" else "express"}}
        row["customer_name"] = o["name"].upper()
    elif v == 4:
        off = rng.choice([60, 120, -300, 330])
        local = t + timedelta(minutes=off)
        ev = {"order_id": str(o["id"]), "ts": local.strftime("%Y-%m-%dT%H:%M:%S") + f"{'+' if off >= 0 else '-'}{abs(off) // 60:02d}:{abs(off) % 60:02d}",
              "currency": o["currency"], "customer_name": o["name"], "customer_email": email_variant,
              "shipping": {"method": o["method"]},
              "items": [{"sku": i["sku"], "qty": i["qty"], "price": dec(i["cents"])} for i in o["items"]]}
        row["items"] = str(sum(i["qty"] for i in o["items"]))
    else:
        ev = {"order_id": f"ORD-{o['id']}", "ts_ms": int(t.timestamp()) * 1000 + rng.randint(0, 999),
              "customer": {"id": f"C{rng.randint(1000, 9999)}", "email": email_variant},
              "shipping": {"method": o["method"]},
              "items": [{"sku": i["sku"], "qty": i["qty"], "price": dec(i["cents"])} for i in o["items"]]}
        if o["currency"] != "EUR" or rng.random() < 0.5:
            ev["currency"] = o["currency"]
        row["items"] = str(sum(i["qty"] for i in o["items"]))
        row["customer_name"] = ""
    keys = list(ev)
    rng.shuffle(keys)
    return {k: ev[k] for k in keys}, row


def batch(rng, n=120, versions=(1, 2, 3, 4, 5)):
    """-> (JSON Lines text, expected canonical CSV text)."""
    t = datetime(rng.randint(2021, 2025), rng.randint(1, 12), rng.randint(1, 28), tzinfo=timezone.utc)
    lines, rows = [], []
    ids = rng.sample(range(1000, 999999), n)
    for oid in ids:
        t += timedelta(seconds=rng.randint(1, 5000))
        o = order(rng, oid, t)
        v = rng.choice(versions)
        ev, row = render(rng, o, v)
        if rng.random() < 0.05:   # no e-mail address: the normaliser dropped such events
            for k in ("customer_email",):
                ev.pop(k, None)
            if "customer" in ev:
                ev["customer"] = {k: val for k, val in ev["customer"].items() if k != "email"}
            row = None
        line = json.dumps(ev, ensure_ascii=rng.random() < 0.5)
        lines.append(line)
        if rng.random() < 0.08:   # redelivered, identical
            lines.insert(rng.randint(0, len(lines)), line)
        if row:
            rows.append(row)
    rows.sort(key=lambda r: int(r["order_id"]))
    buf = io.StringIO()
    w = csv.DictWriter(buf, CANON, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return "\n".join(lines) + "\n", buf.getvalue()
