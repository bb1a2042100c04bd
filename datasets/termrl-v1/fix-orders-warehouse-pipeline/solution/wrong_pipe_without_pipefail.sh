#!/bin/bash
# Plausible but wrong: every fault in the Python code fixed, but the driver still pipes the extractor into
# the loader without pipefail, so a file the extractor rejects is recorded as loaded with no events and the
# run succeeds.
set -euo pipefail
cd /app/pipeline
cat > etl/common.py <<'EOF_FILE'
"""Shared helpers: money in exact minor units, times in UTC, e-mail normalisation."""
from datetime import datetime, timezone
from decimal import Decimal

MINOR_DIGITS = {"EUR": 2, "USD": 2, "GBP": 2, "JPY": 0}


def to_minor(value, currency):
    """'12.3' EUR -> 1230, '1500' JPY -> 1500 (exact)."""
    return int(Decimal(str(value)).scaleb(MINOR_DIGITS[currency]).to_integral_value())


def to_major(minor, currency):
    return Decimal(minor).scaleb(-MINOR_DIGITS[currency])


def utc_text(dt):
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def from_epoch_ms(ms):
    return datetime.fromtimestamp(int(ms) // 1000, tz=timezone.utc)


def norm_email(s):
    return (s or "").strip().lower()
EOF_FILE
cat > etl/extract.py <<'EOF_FILE'
"""extract.py FILE: one export file -> canonical events, one JSON object per line on stdout."""
import csv
import json
import sys
from datetime import datetime, timezone
from pathlib import Path

from common import from_epoch_ms, norm_email, to_minor, utc_text

V1 = ["order_id", "event_id", "ts", "status", "amount", "currency", "email", "version"]
V2 = ["event_id", "order_id", "version", "ts_utc", "status", "currency", "amount_minor", "email"]


def web(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        header = next(rows, None)
        if header not in (V1, V2):
            sys.exit(f"{path}: unknown header {header}")
        for row in rows:
            if not row:
                continue
            r = dict(zip(header, row))
            if header == V1:
                t = datetime.strptime(r["ts"], "%Y-%m-%d %H:%M:%S%z")
                amount = to_minor(r["amount"], r["currency"])
            else:
                t = datetime.strptime(r["ts_utc"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
                amount = int(r["amount_minor"])
            yield {"order_id": r["order_id"], "version": int(r["version"]), "status": r["status"],
                   "amount_minor": amount, "currency": r["currency"], "email": norm_email(r["email"]),
                   "event_time": utc_text(t)}


def app(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            e = json.loads(line)
            yield {"order_id": e["order"], "version": int(e["rev"]), "status": e["state"],
                   "amount_minor": to_minor(e["total"]["value"], e["total"]["ccy"]),
                   "currency": e["total"]["ccy"], "email": norm_email(e["customer"]["email"]),
                   "event_time": utc_text(from_epoch_ms(e["at"]))}


def main(path):
    name = Path(path).name
    if name.startswith("web-") and name.endswith(".csv"):
        events = web(path)
    elif name.startswith("app-") and name.endswith(".jsonl"):
        events = app(path)
    else:
        sys.exit(f"{path}: not an export file")
    out = [json.dumps(e) for e in events]
    sys.stdout.write("".join(line + "\n" for line in out))


if __name__ == "__main__":
    main(sys.argv[1])
EOF_FILE
cat > etl/load.py <<'EOF_FILE'
"""load.py init DB | seen DB NAME | load DB NAME < events.jsonl"""
import json
import sqlite3
import sys

SCHEMA = """
CREATE TABLE IF NOT EXISTS orders (
  order_id TEXT PRIMARY KEY, status TEXT, amount_minor INTEGER, currency TEXT, email TEXT,
  first_seen_at TEXT, updated_at TEXT, version INTEGER);
CREATE TABLE IF NOT EXISTS loaded_files (name TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
"""


def main(cmd, db, name=None):
    con = sqlite3.connect(db)
    if cmd == "init":
        con.executescript(SCHEMA)
        con.commit()
        return 0
    if cmd == "seen":
        return 0 if con.execute("SELECT 1 FROM loaded_files WHERE name = ?", (name,)).fetchone() else 1
    assert cmd == "load", cmd
    events = [json.loads(line) for line in sys.stdin if line.strip()]
    with con:  # one transaction per file
        for e in events:
            row = con.execute("SELECT version, first_seen_at FROM orders WHERE order_id = ?",
                              (e["order_id"],)).fetchone()
            if row is None:
                con.execute("INSERT INTO orders VALUES (?,?,?,?,?,?,?,?)",
                            (e["order_id"], e["status"], e["amount_minor"], e["currency"], e["email"],
                             e["event_time"], e["event_time"], e["version"]))
                continue
            if e["event_time"] < row[1]:
                con.execute("UPDATE orders SET first_seen_at = ? WHERE order_id = ?", (e["event_time"], e["order_id"]))
            if e["version"] > row[0]:
                con.execute("UPDATE orders SET status=?, amount_minor=?, currency=?, email=?, updated_at=?, version=?"
                            " WHERE order_id = ?", (e["status"], e["amount_minor"], e["currency"], e["email"],
                                                    e["event_time"], e["version"], e["order_id"]))
        if events:
            latest = max(e["event_time"] for e in events)
            con.execute("INSERT INTO meta VALUES ('watermark', ?) ON CONFLICT(key) DO UPDATE SET value ="
                        " max(value, excluded.value)", (latest,))
        con.execute("INSERT INTO loaded_files VALUES (?)", (name,))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
EOF_FILE
cat > etl/report.py <<'EOF_FILE'
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
    best = None
    for d, r in rates.get(currency, []):
        if d <= day:
            best = r
    if best is None:
        sys.exit(f"no {currency} rate on or before {day}")
    return best


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
EOF_FILE
cat > run_pipeline.sh <<'EOF_FILE'
#!/bin/bash
# run_pipeline.sh INBOX DB OUTDIR FX_CSV  (see PIPELINE.md)
set -eu
if [ $# -ne 4 ]; then echo "usage: run_pipeline.sh INBOX DB OUTDIR FX_CSV" >&2; exit 2; fi
INBOX=$1 DB=$2 OUT=$3 FX=$4
ETL=$(dirname "$(readlink -f "$0")")/etl
TMP=$(mktemp)
trap 'rm -f "$TMP"' EXIT
python3 "$ETL/load.py" init "$DB"
for f in $(cd "$INBOX" && ls | LC_ALL=C sort); do
  if python3 "$ETL/load.py" seen "$DB" "$f"; then continue; fi
  python3 "$ETL/extract.py" "$INBOX/$f" | python3 "$ETL/load.py" load "$DB" "$f"
done
python3 "$ETL/report.py" "$DB" "$FX" "$OUT"
EOF_FILE
chmod +x run_pipeline.sh
