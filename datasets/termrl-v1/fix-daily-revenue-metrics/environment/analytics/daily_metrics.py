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

    events = pd.read_csv(args.events, dtype={"event_id": str, "user_id": str})
    users = pd.read_csv(args.users, dtype={"user_id": str})
    fx = pd.read_csv(args.fx)

    events["ts"] = pd.to_datetime(events["ts"], utc=True)
    events["date"] = events["ts"].dt.strftime("%Y-%m-%d")

    df = events.merge(users[["user_id", "country"]], on="user_id", how="left")

    fx = pd.concat([fx, pd.DataFrame({"date": df["date"].unique(), "currency": "EUR", "rate_to_eur": 1.0})])
    df = df.merge(fx, on=["date", "currency"], how="left")
    df["eur"] = df["amount"] * df["rate_to_eur"]

    money = df[df["type"].isin(["purchase", "refund"])]
    rows = []
    for (date, country), g in df.groupby(["date", "country"]):
        m = money[(money["date"] == date) & (money["country"] == country)]
        active = g["user_id"].nunique()
        buyers = (g["type"] == "purchase").sum()
        revenue = m["eur"].sum()
        median = m["eur"].median() if len(m) else None
        rows.append({"date": date, "country": country, "active_users": active, "buyers": buyers,
                     "revenue_eur": round(revenue, 2), "conversion": round(buyers / active, 4),
                     "median_order_eur": None if median is None else round(median, 2)})
    pd.DataFrame(rows).sort_values(["date", "country"]).to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
