"""Order exports from several vendor systems, each with its own CSV dialect, encoding and number/date style,
and the merged table they should give (test side only; the expected rows come from the generated orders)."""
import csv
import io
import random
from datetime import date, timedelta

SYN = {
    "order_id": ["order_id", "Order ID", "ORDER NO", "order number", "Bestellnummer"],
    "order_date": ["order_date", "Date", "order date", "Datum"],
    "customer": ["customer", "Customer Name", "client", "Kunde"],
    "amount": ["amount", "Total", "Betrag", "amount (gross)"],
    "currency": ["currency", "CUR", "Währung"],
    "note": ["note", "Notes", "comment", "Bemerkung"],
}
CUSTOMERS = ["Müller GmbH", "Zoë Café", "Smith, Jones & Co", 'The "Best" Shop', "Ørsted A/S", "Łódź Trading",
             "Señor Frío", "Acme", "naïve ideas Ltd", "Crème Brûlée SARL", "Back|slash; Inc"]
NOTES = ["", "", "", "rush", "gift wrap, please", "call before delivery\nring twice", "  leave at\tdoor  ",
         'said "urgent"', "Rückruf erbeten", "fragile; glass", "pay | later"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
SYMBOL = {"EUR": "€", "USD": "$", "GBP": "£"}


def orders(rng, n):
    ids = rng.sample(range(10000, 99999), n)
    out = []
    for oid in ids:
        cents = rng.choice([rng.randint(-5000, 5000), rng.randint(0, 99999), rng.randint(100000, 500000000)])
        out.append({"order_id": f"{rng.choice(['A', 'B', 'SO-'])}{oid}", "order_date": date(2024, 1, 1) + timedelta(days=rng.randint(0, 700)),
                    "customer": rng.choice(CUSTOMERS), "cents": cents, "currency": rng.choice(["EUR", "EUR", "USD", "GBP"]),
                    "note": rng.choice(NOTES)})
    return out


def fmt_amount(rng, cents, style, cur, with_cur_col):
    neg, c = cents < 0, abs(cents)
    units, frac = divmod(c, 100)
    dec, thou = style
    u = f"{units:,}".replace(",", thou) if thou is not None else str(units)
    s = u + rng.choice([dec + f"{frac:02d}", dec + f"{frac:02d}"] + ([dec + str(frac // 10)] if frac % 10 == 0 else [])
                       + ([""] if frac == 0 else []))
    if neg:
        s = rng.choice(["-" + s, "(" + s + ")"])
    if not with_cur_col:
        r = rng.random()
        s = (SYMBOL[cur] + s) if r < 0.4 else (s + " " + cur) if r < 0.8 else (cur + " " + s)
    return s


def fmt_date(d, style):
    return {"iso": d.isoformat(), "de": d.strftime("%d.%m.%Y"), "us": d.strftime("%m/%d/%Y"),
            "compact": d.strftime("%Y%m%d"), "text": f"{d.day} {MONTHS[d.month - 1]} {d.year}"}[style]


def export(rng, rows):
    """-> (bytes of one export file, whether it has a note column)."""
    delim = rng.choice([",", ";", "\t", "|"])
    # decimal/thousands style; a decimal comma never in a comma-delimited file without quoting all fields
    dec = rng.choice([".", ","])
    thou = rng.choice([None, ",", ".", " ", "'"] if dec == "." else [None, ".", " "])
    if thou == dec:
        thou = None
    with_cur_col = rng.random() < 0.6
    cols = ["order_id", "order_date", "customer", "amount"] + (["currency"] if with_cur_col else []) + (["note"] if rng.random() < 0.7 else [])
    extra = rng.sample(["sku", "Warehouse", "status"], rng.randint(0, 2))
    header_keys = cols + extra
    rng.shuffle(header_keys)
    names = [rng.choice(SYN[k]) if k in SYN else k for k in header_keys]
    names = [n if rng.random() < 0.7 else rng.choice([n.upper(), n.lower(), f" {n} "]) for n in names]
    dstyle = rng.choice(["iso", "de", "us", "compact", "text"])
    buf = io.StringIO()
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        buf.write(rng.choice(["Export generated 2025-03-01; page 1 of 1", "ORDERS REPORT", "",
                              "System: legacy ERP, v7.2 | user admin"]) + "\n")
    w = csv.writer(buf, delimiter=delim, quoting=rng.choice([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]),
                   lineterminator=rng.choice(["\r\n", "\n"]))
    w.writerow(names)
    for r in rows:
        vals = {"order_id": rng.choice([r["order_id"], f" {r['order_id']} "]),
                "order_date": fmt_date(r["order_date"], dstyle), "customer": r["customer"],
                "amount": fmt_amount(rng, r["cents"], (dec, thou), r["currency"], with_cur_col),
                "currency": rng.choice([r["currency"], r["currency"].lower(), f" {r['currency']}"]),
                "note": r["note"], "sku": f"SKU{rng.randint(1, 999)}", "Warehouse": rng.choice(["N", "S"]),
                "status": rng.choice(["open", "paid"])}
        w.writerow([vals[k] for k in header_keys])
    if rng.random() < 0.5:   # a footer row without an order id
        w.writerow(["" if k != "amount" else "Total" if rng.random() < 0.5 else "" for k in header_keys])
    text = buf.getvalue()
    enc = rng.choice(["utf-8", "utf-8-sig", "utf-16", "utf-16-be-bom", "cp1252", "cp1252"])
    if enc == "cp1252":
        try:
            return text.encode("cp1252"), "note" in cols
        except UnicodeEncodeError:
            enc = "utf-8"
    if enc == "utf-16-be-bom":
        return b"\xfe\xff" + text.encode("utf-16-be"), "note" in cols
    return text.encode(enc), "note" in cols


def norm_ws(s):
    return " ".join(s.split())


def expected_row(r, source, has_note):
    sign = "-" if r["cents"] < 0 else ""
    return [source, r["order_id"], r["order_date"].isoformat(), norm_ws(r["customer"]),
            f"{sign}{abs(r['cents']) // 100}.{abs(r['cents']) % 100:02d}", r["currency"],
            norm_ws(r["note"]) if has_note else ""]


HEADER = ["source_file", "order_id", "order_date", "customer", "amount", "currency", "note"]


def batch(rng, n_files, n_orders):
    """-> ([(file name, bytes)], expected CSV text). Some orders appear in several files with new values;
    the last file (in the order given) wins, and within a file the last row."""
    pool = orders(rng, n_orders)
    files, final = [], {}
    for i in range(n_files):
        name = f"{rng.choice(['shop', 'erp', 'pos', 'marketplace'])}_{i:02d}.csv"
        rows = rng.sample(pool, rng.randint(max(1, n_orders // 4), max(2, n_orders // 2)))
        rows = [dict(r) for r in rows]
        for r in rows:
            if rng.random() < 0.3:   # a later export has a corrected amount or note
                r["cents"] += rng.randint(-500, 500)
                r["note"] = rng.choice(NOTES)
        if rows and rng.random() < 0.3:   # the same order twice in one file: the later row wins
            again = dict(rng.choice(rows))
            again["cents"] += 1
            rows.append(again)
        data, has_note = export(rng, rows)
        files.append((name, data))
        for r in rows:
            final[r["order_id"]] = expected_row(r, name, has_note)
    out = sorted(final.values(), key=lambda x: (x[2], x[1]))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(out)
    return files, buf.getvalue()
