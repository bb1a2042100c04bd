"""extract.py FILE: one export file -> canonical events, one JSON object per line on stdout."""
import csv
import json
import sys
from datetime import datetime, timezone
from pathlib import Path

from common import from_epoch_ms, norm_email, to_minor, utc_text

V1 = ["order_id", "event_id", "ts", "status", "amount", "currency", "email", "version"]
V2 = ["event_id", "order_id", "version", "ts_utc", "status", "currency", "amount_minor", "email"]
# the fields of a v2 row, by position
V2_COLUMNS = ["order_id", "event_id", "version", "ts_utc", "status", "currency", "amount_minor", "email"]


def web(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        header = next(rows, None)
        if header not in (V1, V2):
            sys.exit(f"{path}: unknown header {header}")
        for row in rows:
            if not row:
                continue
            r = dict(zip(V1 if header == V1 else V2_COLUMNS, row))
            if header == V1:
                t = datetime.strptime(r["ts"][:19], "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc)
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
            e = json.loads(line)
            yield {"order_id": e["order"], "version": int(e["rev"]), "status": e["state"],
                   "amount_minor": to_minor(e["total"]["value"], e["total"]["ccy"]),
                   "currency": e["total"]["ccy"], "email": e["customer"]["email"],
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
