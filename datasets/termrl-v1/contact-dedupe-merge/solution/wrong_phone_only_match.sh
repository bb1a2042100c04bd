#!/bin/bash
set -euo pipefail
cat > /app/dedupe.py <<'PY'
import csv
import re

PRIO = {"crm": 0, "webshop": 1, "newsletter": 2}
FIELDS = ["first_name", "last_name", "email", "phone", "city"]


def norm_email(e):
    e = e.strip().lower()
    if e.count("@") != 1:
        return ""
    local, dom = e.split("@")
    if not local or "." not in dom:
        return ""
    if dom in ("gmail.com", "googlemail.com"):
        local = local.split("+", 1)[0].replace(".", "")
        dom = "gmail.com"
    return f"{local}@{dom}"


def norm_phone(p):
    d = re.sub(r"\D", "", p)
    if len(d) == 11 and d.startswith("1"):
        d = d[1:]
    return d if len(d) == 10 else ""


def norm_text(s):
    return " ".join(s.split())


def run(path):
    recs = []
    for r in csv.DictReader(open(path, newline="", encoding="utf-8")):
        recs.append({"source": r["source"], "source_id": r["source_id"], "first_name": norm_text(r["first_name"]),
                     "last_name": norm_text(r["last_name"]), "email": norm_email(r["email"]),
                     "phone": norm_phone(r["phone"]), "city": norm_text(r["city"]), "updated_at": r["updated_at"]})
    parent = list(range(len(recs)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(i, j):
        a, b = find(i), find(j)
        if a != b:
            parent[max(a, b)] = min(a, b)

    by_email, by_phone = {}, {}
    for i, r in enumerate(recs):
        if r["email"]:
            if r["email"] in by_email:
                union(i, by_email[r["email"]])
            by_email.setdefault(r["email"], i)
        if r["phone"]:
            key = r["phone"]
            if key in by_phone:
                union(i, by_phone[key])
            by_phone.setdefault(key, i)
    clusters = {}
    for i in range(len(recs)):
        clusters.setdefault(find(i), []).append(i)
    groups = sorted(clusters.values(), key=lambda g: min((recs[i]["source"], recs[i]["source_id"]) for i in g))
    people, mapping = [], []
    for n, g in enumerate(groups, 1):
        pid = f"P{n:04d}"
        order = sorted(g, key=lambda i: (recs[i]["updated_at"], -PRIO[recs[i]["source"]]), reverse=True)
        row = {"person_id": pid}
        for f in FIELDS:
            row[f] = next((recs[i][f] for i in order if recs[i][f]), "")
        row["sources"] = ";".join(sorted({recs[i]["source"] for i in g}))
        row["record_count"] = str(len(g))
        people.append(row)
        for i in g:
            mapping.append([recs[i]["source"], recs[i]["source_id"], pid])
    mapping.sort()
    return people, mapping


if __name__ == "__main__":
    import sys
    people, mapping = run(sys.argv[1])
    with open(sys.argv[2], "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        cols = ["person_id"] + FIELDS + ["sources", "record_count"]
        w.writerow(cols)
        for p in people:
            w.writerow([p[c] for c in cols])
    with open(sys.argv[3], "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["source", "source_id", "person_id"])
        w.writerows(mapping)
PY
