#!/bin/bash
# Plausible but wrong: names survive from the most recent record that has one, not by source priority.
set -euo pipefail
cat > /app/golden.py <<'PY'
#!/usr/bin/env python3
"""golden.py INPUT.csv OUTPUT.csv: source customer records -> golden records."""
import csv
import sys

GOLD = ["golden_id", "first_name", "last_name", "email", "phone", "street", "city", "zip", "lifetime_value",
        "opt_in", "sources", "record_count"]
PRIORITY = {"crm": 0, "pos": 1, "shop": 2}


def norm_email(e):
    return e.strip().lower()


def norm_phone(p):
    d = "".join(c for c in p if c.isdigit())
    if p.strip().startswith("+") and d.startswith("49"):
        return d[2:]
    if d.startswith("0049"):
        return d[4:]
    return d[1:] if d.startswith("0") else d


def main(src, dst):
    with open(src, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    parent = list(range(len(rows)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner = {}
    for i, r in enumerate(rows):
        keys = []
        if r["email"].strip():
            keys.append(("email", norm_email(r["email"])))
        if r["phone"].strip():
            keys.append(("phone", norm_phone(r["phone"])))
        for k in keys:
            if k in owner:
                parent[find(i)] = find(owner[k])
            else:
                owner[k] = i
    clusters = {}
    for i, r in enumerate(rows):
        clusters.setdefault(find(i), []).append(r)
    out = []
    for recs in clusters.values():
        recent = sorted(recs, key=lambda r: r["updated_at"], reverse=True)
        prio = sorted(recent, key=lambda r: PRIORITY[r["source"]])  # stable: most recent first within a source

        def pick(seq, field):
            return next((r[field].strip() for r in seq if r[field].strip()), "")

        counts = {}
        for r in recent:
            if r["phone"].strip():
                counts[norm_phone(r["phone"])] = counts.get(norm_phone(r["phone"]), 0) + 1
        phone = ""
        if counts:
            top = max(counts.values())
            phone = "+49" + next(norm_phone(r["phone"]) for r in recent
                                 if r["phone"].strip() and counts[norm_phone(r["phone"])] == top)
        addr = next(((r["street"], r["city"], r["zip"]) for r in recent if r["street"] and r["city"] and r["zip"]),
                    ("", "", ""))
        cents = sum(round(float(r["lifetime_value"]) * 100) for r in recs
                    if r["source"] != "crm" and r["lifetime_value"].strip())
        opts = {r["opt_in"].strip() for r in recs}
        out.append({"golden_id": "G-" + min(r["source_id"] for r in recs),
                    "first_name": pick(recent, "first_name").title(), "last_name": pick(recent, "last_name").title(),
                    "email": norm_email(pick(recent, "email")), "phone": phone,
                    "street": addr[0], "city": addr[1], "zip": addr[2], "lifetime_value": f"{cents / 100:.2f}",
                    "opt_in": "N" if "N" in opts else "Y" if "Y" in opts else "",
                    "sources": ";".join(f"{s}:{n}" for s in ("crm", "pos", "shop")
                                        if (n := sum(r["source"] == s for r in recs))),
                    "record_count": str(len(recs))})
    out.sort(key=lambda g: g["golden_id"])
    with open(dst, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, GOLD, lineterminator="\n")
        w.writeheader()
        w.writerows(out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/golden.py
