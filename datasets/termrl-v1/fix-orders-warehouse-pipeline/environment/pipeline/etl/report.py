"""report.py DB FX_CSV OUTDIR: orders.csv and daily_revenue.csv (see PIPELINE.md)."""
import csv
import sqlite3
import sys
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from common import to_major


def load_rates(path):
    rates = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rates.setdefault(r["currency"], []).append((r["date"], Decimal(r["eur_per_unit"])))
    for v in rates.values():
        v.sort()
    return rates


def rate(rates, currency, day):
    if currency == "EUR":
        return Decimal(1)
    for d, r in rates.get(currency, []):
        if d >= day:
            return r
    sys.exit(f"no {currency} rate for {day}")


def main(db, fx, outdir):
    con = sqlite3.connect(db)
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    rows = con.execute("SELECT order_id, status, amount_minor, currency, email, first_seen_at, updated_at, version"
                       " FROM orders ORDER BY order_id").fetchall()
    wm = con.execute("SELECT value FROM meta WHERE key = 'watermark'").fetchone()
    rates = load_rates(fx)
    days = {}
    for r in rows:
        if r[1] != "paid":
            continue
        day = r[5][:10]
        closes = datetime.combine(date.fromisoformat(day) + timedelta(days=1), datetime.min.time()) + timedelta(hours=2)
        if wm is None or wm[0] < closes.strftime("%Y-%m-%dT%H:%M:%SZ"):
            continue
        eur = (to_major(r[2], r[3]) * rate(rates, r[3], day)).quantize(Decimal("0.01"), ROUND_HALF_UP)
        n, total = days.get(day, (0, Decimal(0)))
        days[day] = (n + 1, total + eur)
    with open(out / "orders.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["order_id", "status", "amount_minor", "currency", "email", "first_seen_at", "updated_at", "version"])
        w.writerows(rows)
    with open(out / "daily_revenue.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["day", "orders", "revenue_eur"])
        for day in sorted(days):
            w.writerow([day, days[day][0], f"{days[day][1]:.2f}"])


if __name__ == "__main__":
    main(*sys.argv[1:])
