#!/bin/bash
# Faults fixed: UTC dates -> Europe/Berlin local dates; retried events deduplicated by event_id; the user
# join restricted to the SCD2 row valid on the event's local date (no fan-out); refunds subtracted;
# FX as-of the latest date on or before the event's date, per currency; buyers counted as distinct users;
# the median over purchases only.
set -euo pipefail
cat > /app/analytics/daily_metrics.py <<'PY'
"""Daily shop metrics; see METRICS.md."""
import argparse

import pandas as pd


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", required=True)
    ap.add_argument("--users", required=True)
    ap.add_argument("--fx", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    events = pd.read_csv(args.events, dtype={"event_id": str, "user_id": str, "currency": str})
    users = pd.read_csv(args.users, dtype={"user_id": str, "country": str, "valid_from": str, "valid_to": str})
    fx = pd.read_csv(args.fx, dtype={"date": str, "currency": str})

    events = events.drop_duplicates("event_id").copy()
    events["ts"] = pd.to_datetime(events["ts"], utc=True).dt.tz_convert("Europe/Berlin")
    events["date"] = events["ts"].dt.strftime("%Y-%m-%d")

    users["valid_to"] = users["valid_to"].fillna("9999-12-31")
    df = events.merge(users, on="user_id", how="left")
    df = df[(df["valid_from"] <= df["date"]) & (df["date"] < df["valid_to"])].copy()

    df["rate"] = 1.0
    money = df["type"].isin(["purchase", "refund"]) & (df["currency"] != "EUR")
    if money.any():
        need = df.loc[money, ["date", "currency"]].reset_index()
        need["d"] = pd.to_datetime(need["date"])
        table = fx.assign(d=pd.to_datetime(fx["date"])).sort_values("d")
        need = pd.merge_asof(need.sort_values("d"), table[["d", "currency", "rate_to_eur"]], on="d",
                             by="currency", direction="backward")
        df.loc[need["index"].to_numpy(), "rate"] = need["rate_to_eur"].to_numpy()
    sign = df["type"].map({"purchase": 1.0, "refund": -1.0, "view": 0.0})
    df["eur"] = df["amount"].fillna(0.0) * df["rate"]
    df["signed"] = df["eur"] * sign

    rows = []
    for (date, country), g in df.groupby(["date", "country"], sort=True):
        purchases = g[g["type"] == "purchase"]
        active = g["user_id"].nunique()
        buyers = purchases["user_id"].nunique()
        median = purchases["eur"].median() if len(purchases) else None
        rows.append({"date": date, "country": country, "active_users": active, "buyers": buyers,
                     "revenue_eur": round(g["signed"].sum(), 2), "conversion": round(buyers / active, 4),
                     "median_order_eur": None if median is None else round(median, 2)})
    cols = ["date", "country", "active_users", "buyers", "revenue_eur", "conversion", "median_order_eur"]
    pd.DataFrame(rows, columns=cols).sort_values(["date", "country"]).to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
PY
