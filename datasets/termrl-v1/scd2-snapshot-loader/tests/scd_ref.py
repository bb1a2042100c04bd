import csv

TRACKED = ("name", "city", "tier")


def read_snapshot(path):
    rows = {}
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            cid = r["customer_id"].strip().upper()
            if not cid:
                continue
            rows[cid] = {k: r[k].strip() for k in ("name", "city", "tier", "email")}
    return rows


def build(snapshots):
    """snapshots: dict date -> {cid: values}. Returns list of dim rows (dicts) in sk order."""
    versions = []
    open_v = {}
    latest_email = {}
    for d in sorted(snapshots):
        snap = snapshots[d]
        for cid, v in snap.items():
            latest_email[cid] = v["email"]
            cur = open_v.get(cid)
            if cur is not None and all(cur[k] == v[k] for k in TRACKED):
                continue
            if cur is not None:
                cur["valid_to"] = d
            nv = {"customer_id": cid, **{k: v[k] for k in TRACKED}, "valid_from": d, "valid_to": None}
            versions.append(nv)
            open_v[cid] = nv
        for cid in list(open_v):
            if cid not in snap:
                open_v.pop(cid)["valid_to"] = d
    versions.sort(key=lambda v: (v["valid_from"], v["customer_id"]))
    out = []
    for sk, v in enumerate(versions, 1):
        out.append((sk, v["customer_id"], v["name"], v["city"], v["tier"], latest_email[v["customer_id"]],
                    v["valid_from"], v["valid_to"], 1 if v["valid_to"] is None else 0))
    return out


def asof(rows, date):
    res = [r for r in rows if r[6] <= date and (r[7] is None or date < r[7])]
    return sorted([(r[1], r[2], r[3], r[4], r[5]) for r in res])
