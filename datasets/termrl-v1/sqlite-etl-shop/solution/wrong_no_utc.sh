#!/bin/bash
set -euo pipefail
rm -f /app/shop.db
cat > /app/etl.py <<'PY'
import csv, json, re, sqlite3, datetime as dt

MON = {m: i for i, m in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], 1)}
rejects = []
db = sqlite3.connect("/app/shop.db")
db.executescript("""
PRAGMA foreign_keys = ON;
CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, signup_date TEXT NOT NULL);
CREATE TABLE products (sku TEXT PRIMARY KEY, title TEXT NOT NULL, price_cents INTEGER NOT NULL CHECK (price_cents > 0));
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(customer_id),
  sku TEXT NOT NULL REFERENCES products(sku), quantity INTEGER NOT NULL CHECK (quantity > 0),
  ordered_at TEXT NOT NULL, line_total_cents INTEGER NOT NULL);
CREATE VIEW customer_totals AS
  SELECT c.customer_id, COUNT(o.order_id) AS order_count, COALESCE(SUM(o.line_total_cents), 0) AS total_cents
  FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id;
""")

def cid_of(v):
    if isinstance(v, int):
        return v
    v = str(v).strip()
    m = re.fullmatch(r"[Cc]?(\d+)", v)
    return int(m.group(1)) if m else None

def date_of(s):
    s = s.strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", s):
        return s
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", s)
    if m:
        return dt.date(int(m.group(3)), int(m.group(2)), int(m.group(1))).isoformat()
    m = re.fullmatch(r"([A-Za-z]{3}) (\d{1,2}) (\d{4})", s)
    return dt.date(int(m.group(3)), MON[m.group(1).title()], int(m.group(2))).isoformat()

def valid_email(e):
    if e.count("@") != 1:
        return False
    a, b = e.split("@")
    return bool(a) and bool(b) and "." in b

custs = json.load(open("/app/raw/customers.json"))
status = []
for c in custs:
    email = c["email"].strip().lower()
    status.append((c, cid_of(c["id"]), email, valid_email(email)))
best = {}
for c, cid, email, ok in status:
    if ok and (email not in best or cid < best[email]):
        best[email] = cid
for c, cid, email, ok in status:
    if not ok:
        rejects.append(("customers", str(c["id"]), "bad_email"))
    elif best[email] != cid:
        rejects.append(("customers", str(c["id"]), "duplicate_email"))
    else:
        db.execute("INSERT INTO customers VALUES (?,?,?,?)", (cid, " ".join(c["name"].split()), email, date_of(c["signup"])))

with open("/app/raw/products.tsv", newline="") as f:
    for r in csv.DictReader(f, delimiter="\t"):
        p = r["price"].strip().replace("$", "").replace(",", "")
        m = re.fullmatch(r"(\d+)(?:\.(\d{1,2}))?", p)
        cents = int(m.group(1)) * 100 + int((m.group(2) or "0").ljust(2, "0")) if m else 0
        if cents <= 0:
            rejects.append(("products", r["sku"], "bad_price"))
            continue
        db.execute("INSERT INTO products VALUES (?,?,?)", (r["sku"].strip(), r["title"], cents))

customers = {row[0] for row in db.execute("SELECT customer_id FROM customers")}
prices = dict(db.execute("SELECT sku, price_cents FROM products"))
loaded = set()
with open("/app/raw/orders.csv", newline="") as f:
    for r in csv.DictReader(f):
        oid = int(r["order_id"])
        cid = cid_of(r["customer"])
        sku = r["sku"].strip().upper()
        q = r["qty"].strip()
        if oid in loaded:
            reason = "duplicate_order"
        elif cid not in customers:
            reason = "unknown_customer"
        elif sku not in prices:
            reason = "unknown_product"
        elif not re.fullmatch(r"\d+", q) or int(q) <= 0:
            reason = "bad_quantity"
        else:
            reason = None
        if reason:
            rejects.append(("orders", r["order_id"], reason))
            continue
        ts = dt.datetime.fromisoformat(r["ordered_at"].strip().replace("Z", "+00:00"))
        utc = ts.strftime("%Y-%m-%d %H:%M:%S")
        db.execute("INSERT INTO orders VALUES (?,?,?,?,?,?)", (oid, cid, sku, int(q), utc, int(q) * prices[sku]))
        loaded.add(oid)
db.commit()
with open("/app/rejects.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["source", "key", "reason"])
    w.writerows(rejects)
PY
python3 /app/etl.py
