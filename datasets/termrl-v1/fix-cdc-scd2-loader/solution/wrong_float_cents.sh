#!/bin/bash
# Plausible but wrong: every fault fixed except the money conversion, which still goes through float
# (int(float("19.99") * 100) == 1998).
set -euo pipefail
cat > /app/pipeline/apply_cdc.py <<'PY'
"""customers CDC loader: snapshot + CDC batches -> current.csv and history.csv (see PIPELINE.md)."""
import argparse
import csv
import json
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path

COLS = ["email", "tier", "balance_cents", "country"]


def utc(ts):
    d = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    return d.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def cents(s):
    return int(float(s) * 100)


def read_snapshot(snapdir):
    meta = json.loads((snapdir / "snapshot.json").read_text())
    rows = {}
    with open(snapdir / "snapshot.csv", newline="") as f:
        for r in csv.DictReader(f):
            rows[int(r["customer_id"])] = {
                "email": r["email"] or None, "tier": r["tier"], "balance_cents": int(r["balance_cents"]),
                "country": r["country"] or None, "updated_at": utc(r["updated_at"])}
    return meta, rows


def read_events(changedir):
    seen = {}
    for path in sorted(changedir.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                ev = json.loads(line)
                seen.setdefault(ev["lsn"], ev)
    return [seen[k] for k in sorted(seen)]


def convert(after):
    out = {}
    for k, v in after.items():
        if k == "balance":
            out["balance_cents"] = None if v is None else cents(v)
        else:
            out[k] = v
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--snapshot", required=True, type=Path)
    ap.add_argument("--changes", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    a = ap.parse_args()

    meta, current = read_snapshot(a.snapshot)
    history = []  # [key, order, row dict, valid_from, valid_to]
    open_version = {}
    for key in sorted(current):
        v = [key, -1, dict(current[key]), current[key]["updated_at"], None]
        history.append(v)
        open_version[key] = v

    for ev in read_events(a.changes):
        if ev["lsn"] <= meta["lsn"]:
            continue
        key, op, ts = int(ev["key"]), ev["op"], utc(ev["ts"])
        if op == "c":
            row = {c: None for c in COLS}
            row.update(convert(ev["after"]))
        elif op == "u":
            if key not in current:
                continue
            row = dict(current[key])
            row.update(convert(ev["after"]))
        elif op == "d":
            if key not in current:
                continue
            del current[key]
            open_version.pop(key)[4] = ts
            continue
        else:
            raise SystemExit(f"unknown op {op!r} at lsn {ev['lsn']}")
        row["updated_at"] = ts
        current[key] = row
        if key in open_version:
            open_version[key][4] = ts
        v = [key, ev["lsn"], dict(row), ts, None]
        history.append(v)
        open_version[key] = v

    a.out.mkdir(parents=True, exist_ok=True)
    fmt = lambda x: "" if x is None else x
    with open(a.out / "current.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["customer_id"] + COLS + ["updated_at"])
        for key in sorted(current):
            r = current[key]
            w.writerow([key] + [fmt(r[c]) for c in COLS] + [r["updated_at"]])
    with open(a.out / "history.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["customer_id"] + COLS + ["valid_from", "valid_to"])
        for key, _, r, vf, vt in sorted(history, key=lambda v: (v[0], v[1])):
            w.writerow([key] + [fmt(r[c]) for c in COLS] + [vf, fmt(vt)])


if __name__ == "__main__":
    main()
PY
