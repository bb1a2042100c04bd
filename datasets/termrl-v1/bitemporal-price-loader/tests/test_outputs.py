import json
import random
import re
import sqlite3
import subprocess
from datetime import date, datetime, timedelta, timezone

import pytest

SCHEMA = "/app/schema.sql"
LOADER = "/app/bt_load.py"
OFFSETS = [0, 60, -300, 330, 840, -600, 120, 345]
PROBE = ("SELECT price_cents FROM price_bt WHERE sku = ? AND valid_from <= ? AND (valid_to IS NULL OR ? < valid_to) "
         "AND recorded_at <= ? AND (superseded_at IS NULL OR ? < superseded_at)")


def iso(dt_utc, offset_min):
    tz = timezone(timedelta(minutes=offset_min))
    s = dt_utc.astimezone(tz).isoformat()
    return s.replace("+00:00", "Z") if offset_min == 0 and random.random() < 0.5 else s


def gen_messages(seed, skus=5, per_sku=40, same_instant=0.2, retract=0.1, open_end=0.3):
    random.seed(seed)
    t = datetime(2026, 1, 3, 8, 0, 0, tzinfo=timezone.utc)
    msgs, seq = [], 1000 + random.randint(0, 50)
    names = [f"SKU-{random.randint(100, 999)}-{c}" for c in "ABCDEFGHIJ"[:skus]]
    for _ in range(skus * per_sku):
        if random.random() >= same_instant or not msgs:
            t += timedelta(minutes=random.choice([1, 7, 30, 90, 60 * 20, 60 * 24 * 3]), seconds=random.randint(0, 59))
        sku = random.choice(names)
        a = date(2026, 1, 1) + timedelta(days=random.randint(0, 120))
        b = None if random.random() < open_end else a + timedelta(days=random.randint(1, 60))
        price = None if random.random() < retract else random.choice([999, 1299, 1499, random.randint(100, 5000)])
        seq += random.randint(1, 3)
        msgs.append({"seq": seq, "sku": sku, "valid_from": a.isoformat(), "valid_to": b and b.isoformat(),
                     "price_cents": price, "_t": t, "recorded_at": iso(t, random.choice(OFFSETS))})
    return msgs


def strip(m):
    return {k: v for k, v in m.items() if not k.startswith("_")}


def batches_of(msgs, n, seed, dup=0.1):
    rnd = random.Random(seed)
    order = msgs[:]
    rnd.shuffle(order)
    cuts = sorted(rnd.sample(range(1, len(order)), n - 1))
    parts = [order[i:j] for i, j in zip([0] + cuts, cuts + [len(order)])]
    for k in range(1, n):  # at-least-once delivery: some messages arrive again later
        parts[k] += [m for m in order[: cuts[k - 1]] if rnd.random() < dup]
        rnd.shuffle(parts[k])
    return parts


HORIZON = date(2027, 1, 1)  # every valid-time boundary in the data lies before this


def history(msgs, sku):
    """[(known_from_utc, {day: price})] after each recorded instant, day by day up to HORIZON."""
    st, out = {}, []
    for m in sorted(msgs, key=lambda m: m["seq"]):
        if m["sku"] != sku:
            continue
        a = date.fromisoformat(m["valid_from"])
        b = date.fromisoformat(m["valid_to"]) if m["valid_to"] else HORIZON
        d = a
        while d < b:
            if m["price_cents"] is None:
                st.pop(d, None)
            else:
                st[d] = m["price_cents"]
            d += timedelta(days=1)
        if out and out[-1][0] == m["_t"]:
            out[-1] = (m["_t"], dict(st))
        else:
            out.append((m["_t"], dict(st)))
    return out


def lookup(hist, known, day):
    st = {}
    for t, s in hist:
        if t <= known:
            st = s
    return st.get(min(day, HORIZON - timedelta(days=1)))


def fresh_db(path):
    subprocess.run(f"sqlite3 {path} < {SCHEMA}", shell=True, check=True)


def load(db, batch, tmp):
    p = tmp / f"batch{random.randint(0, 10**9)}.jsonl"
    p.write_text("".join(json.dumps(strip(m)) + "\n" for m in batch))
    r = subprocess.run(["python3", LOADER, str(db), str(p)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]


def probes(msgs):
    out = []
    fmt = "%Y-%m-%dT%H:%M:%SZ"
    times = sorted({m["_t"] for m in msgs})
    knowns = [times[0] - timedelta(seconds=1)]
    for t in times:
        knowns += [t, t + timedelta(seconds=1)]
        knowns.append(t - timedelta(seconds=1))
    knowns.append(times[-1] + timedelta(days=400))
    days = set()
    for m in msgs:
        for v in (m["valid_from"], m["valid_to"]):
            if v:
                d = date.fromisoformat(v)
                days |= {d, d - timedelta(days=1)}
    days = sorted(days) + [date(2031, 6, 1)]
    rnd = random.Random(len(msgs))
    skus = sorted({m["sku"] for m in msgs})
    for sku in skus:
        ks = sorted(set(knowns))
        ks = ks[:: max(1, len(ks) // 60)] + [k for k in ks if rnd.random() < 0.05]
        hist = history(msgs, sku)
        for k in ks:
            for d in days[:: max(1, len(days) // 50)] + rnd.sample(days, min(15, len(days))):
                want = lookup(hist, k, d)
                out.append((sku, d.isoformat(), k.strftime(fmt), want))
    return out


def check_probes(db, msgs):
    con = sqlite3.connect(db)
    bad = []
    for sku, v, k, want in probes(msgs):
        got = [r[0] for r in con.execute(PROBE, (sku, v, v, k, k)).fetchall()]
        if got != ([] if want is None else [want]):
            bad.append((sku, v, k, want, got))
    con.close()
    assert not bad, f"{len(bad)} wrong probes, e.g. {bad[:5]}"


def rows(db):
    con = sqlite3.connect(db)
    r = sorted(con.execute("SELECT sku, valid_from, valid_to, price_cents, recorded_at, superseded_at FROM price_bt"
                           ).fetchall(), key=repr)
    con.close()
    return r


def test_single_batch_in_order(tmp_path):
    msgs = gen_messages(11, skus=3, per_sku=30)
    db = tmp_path / "a.db"
    fresh_db(db)
    load(db, msgs, tmp_path)
    check_probes(db, msgs)


def test_late_batches(tmp_path):
    msgs = gen_messages(22)
    db = tmp_path / "a.db"
    fresh_db(db)
    for b in batches_of(msgs, 6, 5, dup=0.0):
        load(db, b, tmp_path)
    check_probes(db, msgs)


def test_redelivery_and_arrival_order_independent(tmp_path):
    msgs = gen_messages(33)

    for i, seed in enumerate((1, 2)):
        db = tmp_path / f"{i}.db"
        fresh_db(db)
        for b in batches_of(msgs, 8, seed, dup=0.15):
            load(db, b, tmp_path)
        check_probes(db, msgs)



def test_reload_changes_nothing(tmp_path):
    msgs = gen_messages(44, skus=4)
    db = tmp_path / "a.db"
    fresh_db(db)
    parts = batches_of(msgs, 4, 9)
    for b in parts:
        load(db, b, tmp_path)
    before = rows(db)
    load(db, parts[1], tmp_path)
    load(db, parts[0], tmp_path)
    assert rows(db) == before


def test_row_format(tmp_path):
    msgs = gen_messages(55, same_instant=0.5, open_end=0.4)
    db = tmp_path / "a.db"
    fresh_db(db)
    for b in batches_of(msgs, 5, 3):
        load(db, b, tmp_path)
    check_probes(db, msgs)
    all_rows = rows(db)
    assert all_rows
    ts = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
    dt = re.compile(r"^\d{4}-\d\d-\d\d$")
    open_ended = 0
    for sku, vf, vt, p, rec, sup in all_rows:
        assert dt.match(vf) and (vt is None or (dt.match(vt) and vf < vt)), (vf, vt)
        open_ended += vt is None
        assert isinstance(p, int)
        assert ts.match(rec) and (sup is None or (ts.match(sup) and rec < sup)), (rec, sup)
    assert open_ended > 0


def test_offsets_reorder_local_strings(tmp_path):
    base = datetime(2026, 3, 1, 22, 0, 0, tzinfo=timezone.utc)
    spec = [  # (minutes after base, offset, valid_from, valid_to, price)
        (0, 840, "2026-03-01", None, 1000),      # local 2026-03-02T12:00+14:00
        (30, -600, "2026-03-05", "2026-03-10", 1100),  # local 2026-03-01T12:30-10:00
        (90, 0, "2026-03-07", None, None),
        (150, 330, "2026-03-01", "2026-03-03", 900),
        (150, -300, "2026-03-02", "2026-03-04", 950),  # same instant as the previous one
        (600, 60, "2026-02-20", "2026-03-06", 1200),
    ]
    msgs = []
    for i, (mins, off, a, b, p) in enumerate(spec):
        t = base + timedelta(minutes=mins)
        s = t.astimezone(timezone(timedelta(minutes=off))).isoformat()
        msgs.append({"seq": 10 + i, "sku": "W-1", "valid_from": a, "valid_to": b, "price_cents": p, "_t": t,
                     "recorded_at": s})
    db = tmp_path / "a.db"
    fresh_db(db)
    load(db, msgs[3:], tmp_path)
    load(db, msgs[:3], tmp_path)
    check_probes(db, msgs)
    con = sqlite3.connect(db)
    got = con.execute(PROBE, ("W-1", "2026-03-08", "2026-03-08", "2026-03-01T22:45:00Z", "2026-03-01T22:45:00Z"))
    assert [r[0] for r in got] == [1100]
