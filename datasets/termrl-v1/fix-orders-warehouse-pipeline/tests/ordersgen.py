"""Export files for the orders pipeline, night by night, and what PIPELINE.md says the reports are."""
import csv
import io
import json
import random
from datetime import date, datetime, timedelta, timezone
from decimal import ROUND_HALF_UP, Decimal

DIGITS = {"EUR": 2, "USD": 2, "GBP": 2, "JPY": 0}
V1 = ["order_id", "event_id", "ts", "status", "amount", "currency", "email", "version"]
V2 = ["event_id", "order_id", "version", "ts_utc", "status", "currency", "amount_minor", "email"]
OFFSETS = [0, 60, 120, -300, 330, -420, 60]


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def major(minor, ccy, rng):
    s = str(minor) if DIGITS[ccy] == 0 else f"{minor / 100:.2f}" if minor % 100 else str(minor // 100)
    if "." in s and s.endswith("0") and rng.random() < 0.5:
        s = s[:-1]
    return s


def email_variant(e, rng):
    e = rng.choice([e, e, e.upper(), e.capitalize()])
    return rng.choice(["", "", " "]) + e + rng.choice(["", "", "  "])


def generate(seed, n_orders=120, n_days=7):
    rng = random.Random(seed)
    d0 = datetime(2026, rng.randint(1, 10), rng.randint(1, 20), tzinfo=timezone.utc)
    cutover = (d0 + timedelta(days=rng.randint(2, 4))).date()
    events = []  # (event dict, sources)
    for k in range(n_orders):
        oid = f"O{rng.randrange(10**5, 10**6)}-{k}"
        ccy = rng.choice(["EUR", "EUR", "EUR", "USD", "GBP", "JPY"])
        email = f"{rng.choice(['ann', 'bo', 'cy', 'di', 'ed'])}{rng.randrange(1000)}@{rng.choice(['ex.org', 'Mail.de'])}"
        t = d0 + timedelta(seconds=rng.randrange(n_days * 86400 - 3600))
        amount = rng.randrange(100, 500000) if ccy != "JPY" else rng.randrange(100, 90000)
        n_ver = rng.choice([1, 2, 2, 3, 3, 4, 5, 11, 12])
        status = "placed"
        for v in range(1, n_ver + 1):
            if v > 1:
                t += timedelta(seconds=rng.choice([5, 60, 900, 3600, 4 * 3600, 20 * 3600]))
                status = rng.choice(["paid", "paid", "paid", "placed", "cancelled", "refunded"]) if v < n_ver or \
                    rng.random() < 0.3 else "paid"
                if rng.random() < 0.3:
                    amount = max(1, amount + rng.randrange(-2000, 2000))
            src = rng.choices(["web", "app", "both"], [5, 4, 2])[0]
            events.append(({"order_id": oid, "version": v, "status": status, "amount_minor": amount,
                             "currency": ccy, "email": email, "event_time": t.replace(microsecond=0),
                             "ms": rng.randrange(1000)}, src))
    # delivery: mostly the day after, some late by days; a final backfill of old events
    nights = {}
    backfill = []
    last_day = (d0 + timedelta(days=n_days)).date()
    for ev, src in events:
        late = rng.choices([1, 1, 1, 2, 3, 5], [10, 10, 10, 3, 2, 1])[0]
        night = ev["event_time"].date() + timedelta(days=late)
        if ev["event_time"].date() < d0.date() + timedelta(days=2) and rng.random() < 0.06:
            backfill.append((ev, src))
            continue
        nights.setdefault(min(night, last_day), []).append((ev, src))
    night_files = []
    for night in sorted(nights):
        night_files.append(_files(rng, night, nights[night], cutover))
    night_files.append(_files(rng, last_day + timedelta(days=1), backfill, cutover, late_suffix=True))
    fx = _fx(rng, d0.date(), n_days + 3)
    return night_files, fx


def _files(rng, night, evs, cutover, late_suffix=False):
    by_src = {"web": [], "app": []}
    for ev, src in evs:
        for s in (["web", "app"] if src == "both" else [src]):
            by_src[s].append(ev)
    files = []
    stamp = night.strftime("%Y%m%d")
    for s, lst in by_src.items():
        rng.shuffle(lst)
        parts = [lst] if len(lst) < 20 or rng.random() < 0.5 else [lst[:len(lst) // 2], lst[len(lst) // 2:]]
        for i, part in enumerate(parts):
            if not part:
                continue
            name = f"{s}-{stamp}-{(99 - i) if late_suffix else (i + 1):02d}"
            if s == "web":
                v2 = night >= cutover and not (late_suffix and i == 0)
                files.append((name + ".csv", _web(rng, part, v2), part))
            else:
                files.append((name + ".jsonl", _app(rng, part), part))
    return files


def _web(rng, evs, v2):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator=rng.choice(["\n", "\r\n"]))
    w.writerow(V2 if v2 else V1)
    off = rng.choice(OFFSETS)
    for e in evs:
        eid = f"w{rng.randrange(10**9)}"
        em = email_variant(e["email"], rng)
        if v2:
            w.writerow([eid, e["order_id"], e["version"], iso(e["event_time"]), e["status"], e["currency"],
                        e["amount_minor"], em])
        else:
            local = e["event_time"].astimezone(timezone(timedelta(minutes=off)))
            w.writerow([e["order_id"], eid, local.isoformat(sep=" "), e["status"], major(e["amount_minor"], e["currency"], rng),
                        e["currency"], em, e["version"]])
        if rng.random() < 0.05:
            buf.write("\n")
    return buf.getvalue()


def _app(rng, evs):
    lines = []
    for e in evs:
        ms = int(e["event_time"].timestamp()) * 1000 + e["ms"]
        lines.append(json.dumps({"id": f"a-{rng.randrange(10**9)}", "order": e["order_id"], "rev": e["version"],
                                 "at": ms, "state": e["status"],
                                 "total": {"value": major(e["amount_minor"], e["currency"], rng), "ccy": e["currency"]},
                                 "customer": {"email": email_variant(e["email"], rng)}}))
        if rng.random() < 0.08:
            lines.append("")
    return "\n".join(lines) + "\n"


def _fx(rng, start, n):
    rows = ["date,currency,eur_per_unit"]
    base = {"USD": Decimal("0.9213"), "GBP": Decimal("1.1634"), "JPY": Decimal("0.006123")}
    d = start - timedelta(days=3)
    for _ in range(n + 3):
        if d.weekday() < 5 or d == start - timedelta(days=3):
            for c, r in base.items():
                q = Decimal("0.000001") if c == "JPY" else Decimal("0.0001")
                r = (r * Decimal(1 + rng.uniform(-0.01, 0.01))).quantize(q)
                base[c] = r
                rows.append(f"{d.isoformat()},{c},{r}")
        d += timedelta(days=1)
    body = rows[1:]
    rng.shuffle(body)
    return "\n".join([rows[0]] + body) + "\n"


# ---- what PIPELINE.md defines ----
def expected(nights_so_far, fx_text):
    orders, wm = {}, None
    for files in nights_so_far:
        for name, _body, evs in sorted(files, key=lambda f: f[0].encode()):
            for e in evs:
                t = iso(e["event_time"])
                o = orders.get(e["order_id"])
                if o is None:
                    orders[e["order_id"]] = o = {"first": t, "v": 0}
                o["first"] = min(o["first"], t)
                if e["version"] > o["v"]:
                    o.update(v=e["version"], status=e["status"], amount=e["amount_minor"], ccy=e["currency"],
                             email=e["email"].strip().lower(), upd=t)
                wm = t if wm is None else max(wm, t)
    oc = ["order_id,status,amount_minor,currency,email,first_seen_at,updated_at,version"]
    for k in sorted(orders):
        o = orders[k]
        oc.append(f"{k},{o['status']},{o['amount']},{o['ccy']},{o['email']},{o['first']},{o['upd']},{o['v']}")
    rates = {}
    for line in fx_text.splitlines()[1:]:
        d, c, r = line.split(",")
        rates.setdefault(c, []).append((d, Decimal(r)))
    days = {}
    for k, o in orders.items():
        day = o["first"][:10]
        closes = iso(datetime.combine(date.fromisoformat(day) + timedelta(days=1), datetime.min.time())
                     + timedelta(hours=2))
        if o["status"] != "paid" or wm < closes:
            continue
        rate = Decimal(1) if o["ccy"] == "EUR" else max((d, r) for d, r in rates[o["ccy"]] if d <= day)[1]
        eur = (Decimal(o["amount"]).scaleb(-DIGITS[o["ccy"]]) * rate).quantize(Decimal("0.01"), ROUND_HALF_UP)
        n, s = days.get(day, (0, Decimal(0)))
        days[day] = (n + 1, s + eur)
    dr = ["day,orders,revenue_eur"] + [f"{d},{days[d][0]},{days[d][1]:.2f}" for d in sorted(days)]
    return "\n".join(oc) + "\n", "\n".join(dr) + "\n"
