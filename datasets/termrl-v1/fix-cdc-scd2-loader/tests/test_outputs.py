"""apply_cdc.py on snapshots and CDC batches generated here (other seeds than the sample, plus hand-made
cases), compared with PIPELINE.md computed independently below."""
import csv
import json
import subprocess
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import pytest

SCRIPT = "/app/pipeline/apply_cdc.py"
import random

OFFSETS = [0, 0, 60, 120, -300, -240, 330, 540, -180]
TIERS = ["free", "basic", "gold", "platinum"]
COUNTRIES = ["DE", "FR", "US", "IN", "JP", "BR", None]


def stamp(rng, t):
    off = rng.choice(OFFSETS)
    if off == 0 and rng.random() < 0.5:
        return t.strftime("%Y-%m-%dT%H:%M:%SZ")
    return t.astimezone(timezone(timedelta(minutes=off))).isoformat()


def money(rng, c):
    s = f"{c / 100:.2f}" if c % 100 else str(c // 100)
    if s.endswith("0") and "." in s and rng.random() < 0.5:
        s = s[:-1]
    return s


def generate(seed, n_customers=60, n_events=400):
    rng = random.Random(seed)
    t = datetime(2026, 3, 20, 8, 0, tzinfo=timezone.utc)
    lsn0 = 5000 + rng.randrange(1000)
    rows, snap = {}, []
    ids = sorted(rng.sample(range(1, 400), n_customers))
    for k in ids:
        row = {"email": rng.choice([f"c{k}@example.org", None]), "tier": rng.choice(TIERS),
               "balance": rng.randrange(-5000, 500000), "country": rng.choice(COUNTRIES)}
        upd = t - timedelta(minutes=rng.randrange(1, 20000))
        rows[k] = row
        snap.append([k, row["email"] or "", row["tier"], row["balance"], row["country"] or "", stamp(rng, upd)])
    events, lsn = [], lsn0 - 6
    for _ in range(6):  # already reflected in the snapshot (the last one has lsn == snapshot lsn)
        lsn += 1
        k = rng.choice(ids)
        events.append({"lsn": lsn, "op": "u", "ts": stamp(rng, t - timedelta(seconds=rng.randrange(60, 600))),
                       "key": k, "after": {"tier": rng.choice(TIERS), "balance": money(rng, rng.randrange(0, 99999))}})
    alive = set(ids)
    dead = set()
    for _ in range(n_events):
        lsn += 1 + (rng.random() < 0.2)
        t += timedelta(seconds=rng.choice([0, 1, 7, 30, 300, 4000]))
        r = rng.random()
        if r < 0.55 and alive:
            k = rng.choice(sorted(alive))
            after = {}
            for col in rng.sample(["email", "tier", "balance", "country"], rng.randint(1, 3)):
                if col == "email":
                    after[col] = rng.choice([f"n{lsn}@example.com", None])
                elif col == "tier":
                    after[col] = rng.choice(TIERS)
                elif col == "balance":
                    after[col] = money(rng, rng.randrange(-5000, 500000))
                else:
                    after[col] = rng.choice(COUNTRIES)
            ev = {"lsn": lsn, "op": "u", "ts": stamp(rng, t), "key": k, "after": after}
        elif r < 0.65 and alive:
            k = rng.choice(sorted(alive))
            alive.discard(k)
            dead.add(k)
            ev = {"lsn": lsn, "op": "d", "ts": stamp(rng, t), "key": k}
        elif r < 0.72 and dead:
            k = rng.choice(sorted(dead))  # stale update/delete of a deleted key
            ev = {"lsn": lsn, "op": rng.choice("ud"), "ts": stamp(rng, t), "key": k}
            if ev["op"] == "u":
                ev["after"] = {"tier": rng.choice(TIERS)}
        else:
            pool = sorted(dead) if dead and rng.random() < 0.5 else None
            k = rng.choice(pool) if pool else rng.choice([x for x in range(1, 500) if x not in alive])
            if rng.random() < 0.1 and alive:
                k = rng.choice(sorted(alive))  # create over an existing row
            dead.discard(k)
            alive.add(k)
            ev = {"lsn": lsn, "op": "c", "ts": stamp(rng, t), "key": k,
                  "after": {"email": rng.choice([f"c{k}.{lsn}@example.net", None]), "tier": rng.choice(TIERS),
                            "balance": money(rng, rng.randrange(-5000, 500000)), "country": rng.choice(COUNTRIES)}}
        events.append(ev)
    # batches of consecutive LSNs, uploaded out of order, some uploaded twice
    batches, i = [], 0
    while i < len(events):
        n = rng.randint(15, 45)
        batches.append(events[i:i + n])
        i += n
    uploads = batches[:]
    for b in rng.sample(batches, max(2, len(batches) // 3)):
        uploads.append(b[rng.randrange(len(b) // 2):])
    rng.shuffle(uploads)
    files = []
    for b in uploads:
        lines = [json.dumps(e) for e in b]
        rng.shuffle(lines)
        files.append("\n".join(lines) + "\n")
    meta = {"lsn": lsn0, "taken_at": stamp(rng, datetime(2026, 3, 20, 8, 0, tzinfo=timezone.utc))}
    return meta, snap, files


def write(seed, snapdir, changedir, **kw):
    meta, snap, files = generate(seed, **kw)
    snapdir, changedir = Path(snapdir), Path(changedir)
    snapdir.mkdir(parents=True, exist_ok=True)
    changedir.mkdir(parents=True, exist_ok=True)
    (snapdir / "snapshot.json").write_text(json.dumps(meta) + "\n")
    with open(snapdir / "snapshot.csv", "w") as f:
        f.write("customer_id,email,tier,balance_cents,country,updated_at\n")
        for r in snap:
            f.write(",".join(str(x) for x in r) + "\n")
    for i, body in enumerate(files):
        (changedir / f"batch-{i + 1:04d}.jsonl").write_text(body)



# ---- reference (PIPELINE.md) ----
def _utc(ts):
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def reference(snapdir, changedir):
    meta = json.loads((snapdir / "snapshot.json").read_text())
    cur, versions, open_v = {}, [], {}
    with open(snapdir / "snapshot.csv", newline="") as f:
        for r in csv.DictReader(f):
            k = int(r["customer_id"])
            cur[k] = [r["email"], r["tier"], str(int(r["balance_cents"])), r["country"], _utc(r["updated_at"])]
            open_v[k] = [k, -1] + cur[k][:4] + [cur[k][4], ""]
            versions.append(open_v[k])
    events = {}
    for p in changedir.glob("*.jsonl"):
        for line in p.read_text().splitlines():
            if line.strip():
                e = json.loads(line)
                events[e["lsn"]] = e
    idx = {"email": 0, "tier": 1, "balance": 2, "country": 3}
    for lsn in sorted(events):
        e = events[lsn]
        if lsn <= meta["lsn"]:
            continue
        k, ts = int(e["key"]), _utc(e["ts"])
        if e["op"] in "ud" and k not in cur:
            continue
        if e["op"] == "d":
            del cur[k]
            open_v.pop(k)[-1] = ts
            continue
        row = ["", "", "", ""] if e["op"] == "c" else cur[k][:4]
        for col, v in e["after"].items():
            if v is None:
                v = ""
            elif col == "balance":
                v = str(int(Decimal(v) * 100))
            row[idx[col]] = v
        cur[k] = row + [ts]
        if k in open_v:
            open_v[k][-1] = ts
        open_v[k] = [k, lsn] + row + [ts, ""]
        versions.append(open_v[k])
    current = [["customer_id", "email", "tier", "balance_cents", "country", "updated_at"]]
    current += [[str(k)] + cur[k] for k in sorted(cur)]
    history = [["customer_id", "email", "tier", "balance_cents", "country", "valid_from", "valid_to"]]
    history += [[str(v[0])] + v[2:] for v in sorted(versions, key=lambda v: (v[0], v[1]))]
    return current, history


def run(tmp, snapdir, changedir):
    out = tmp / "out"
    r = subprocess.run(["python3", SCRIPT, "--snapshot", str(snapdir), "--changes", str(changedir), "--out", str(out)],
                       capture_output=True, text=True, timeout=120, cwd="/app")
    assert r.returncode == 0, r.stderr[-2000:]
    rd = lambda name: list(csv.reader(open(out / name, newline="")))
    return rd("current.csv"), rd("history.csv")


def hand_case(tmp, snap_rows, events, snap_lsn=100, batches=None):
    """snap_rows: [id, email, tier, balance_cents, country, updated_at]; events: dicts; batches: lists of lsns."""
    s, c = tmp / "snap", tmp / "chg"
    s.mkdir()
    c.mkdir()
    (s / "snapshot.json").write_text(json.dumps({"lsn": snap_lsn, "taken_at": "2026-01-01T00:00:00Z"}))
    (s / "snapshot.csv").write_text("customer_id,email,tier,balance_cents,country,updated_at\n"
                                    + "".join(",".join(map(str, r)) + "\n" for r in snap_rows))
    by_lsn = {e["lsn"]: e for e in events}
    for i, b in enumerate(batches or [[e["lsn"] for e in events]]):
        (c / f"batch-{i + 1:04d}.jsonl").write_text("".join(json.dumps(by_lsn[x]) + "\n" for x in b))
    return s, c


@pytest.mark.parametrize("seed", [7, 4242])
def test_generated_current_matches_spec(tmp_path, seed):
    write(seed, tmp_path / "s", tmp_path / "c", n_customers=80, n_events=600)
    cur, _ = run(tmp_path, tmp_path / "s", tmp_path / "c")
    exp, _ = reference(tmp_path / "s", tmp_path / "c")
    assert cur[0] == exp[0]
    assert len(cur) == len(exp), (len(cur), len(exp))
    bad = [(g, e) for g, e in zip(cur, exp) if g != e]
    assert not bad, f"{len(bad)} rows differ, first: got {bad[0][0]} expected {bad[0][1]}"


@pytest.mark.parametrize("seed", [7, 4242])
def test_generated_history_matches_spec(tmp_path, seed):
    write(seed, tmp_path / "s", tmp_path / "c", n_customers=80, n_events=600)
    _, hist = run(tmp_path, tmp_path / "s", tmp_path / "c")
    _, exp = reference(tmp_path / "s", tmp_path / "c")
    assert hist[0] == exp[0]
    assert len(hist) == len(exp), (len(hist), len(exp))
    bad = [(g, e) for g, e in zip(hist, exp) if g != e]
    assert not bad, f"{len(bad)} rows differ, first: got {bad[0][0]} expected {bad[0][1]}"


def test_balances_are_exact_cents(tmp_path):
    vals = ["0.29", "19.99", "1.15", "-0.07", "1999", "12.3", "4.35", "-8.7", "0.57", "1005.13"]
    evs = [{"lsn": 101 + i, "op": "c", "ts": "2026-01-02T00:00:00Z", "key": i + 1,
            "after": {"email": None, "tier": "free", "balance": v, "country": "DE"}} for i, v in enumerate(vals)]
    s, c = hand_case(tmp_path, [], evs)
    cur, _ = run(tmp_path, s, c)
    assert [r[3] for r in cur[1:]] == ["29", "1999", "115", "-7", "199900", "1230", "435", "-870", "57", "100513"]


def test_offsets_become_utc(tmp_path):
    snap = [[1, "a@x.org", "free", 100, "DE", "2026-01-01T01:30:00+02:00"]]
    evs = [{"lsn": 101, "op": "u", "ts": "2026-01-02T23:15:00-05:00", "key": 1, "after": {"tier": "gold"}},
           {"lsn": 102, "op": "u", "ts": "2026-01-03T09:45:10+05:30", "key": 1, "after": {"tier": "basic"}}]
    s, c = hand_case(tmp_path, snap, evs)
    cur, hist = run(tmp_path, s, c)
    assert cur[1] == ["1", "a@x.org", "basic", "100", "DE", "2026-01-03T04:15:10Z"]
    assert [h[5:] for h in hist[1:]] == [["2025-12-31T23:30:00Z", "2026-01-03T04:15:00Z"],
                                         ["2026-01-03T04:15:00Z", "2026-01-03T04:15:10Z"],
                                         ["2026-01-03T04:15:10Z", ""]]


def test_redelivered_and_out_of_order_batches(tmp_path):
    snap = [[5, "e@x.org", "free", 0, "FR", "2026-01-01T00:00:00Z"]]
    evs = [{"lsn": 101, "op": "u", "ts": "2026-01-02T00:00:00Z", "key": 5, "after": {"tier": "basic"}},
           {"lsn": 102, "op": "u", "ts": "2026-01-02T00:01:00Z", "key": 5, "after": {"tier": "gold"}},
           {"lsn": 103, "op": "u", "ts": "2026-01-02T00:02:00Z", "key": 5, "after": {"balance": "3"}}]
    # uploaded: [103, 102] first, then [101, 102] (re-upload), then [103] again
    s, c = hand_case(tmp_path, snap, evs, batches=[[103, 102], [101, 102], [103]])
    cur, hist = run(tmp_path, s, c)
    assert cur[1] == ["5", "e@x.org", "gold", "300", "FR", "2026-01-02T00:02:00Z"]
    assert [h[2] for h in hist[1:]] == ["free", "basic", "gold", "gold"]
    assert [h[3] for h in hist[1:]] == ["0", "0", "0", "300"]


def test_null_clears_and_absent_keeps(tmp_path):
    snap = [[9, "old@x.org", "gold", 500, "JP", "2026-01-01T00:00:00Z"]]
    evs = [{"lsn": 101, "op": "u", "ts": "2026-01-02T00:00:00Z", "key": 9, "after": {"email": None, "tier": "basic"}}]
    s, c = hand_case(tmp_path, snap, evs)
    cur, _ = run(tmp_path, s, c)
    assert cur[1] == ["9", "", "basic", "500", "JP", "2026-01-02T00:00:00Z"]


def test_deleted_rows_stay_deleted_and_recreate_fresh(tmp_path):
    snap = [[3, "a@x.org", "gold", 700, "US", "2026-01-01T00:00:00Z"],
            [4, "b@x.org", "free", 10, "US", "2026-01-01T00:00:00Z"]]
    evs = [{"lsn": 101, "op": "d", "ts": "2026-01-02T00:00:00Z", "key": 3},
           {"lsn": 102, "op": "u", "ts": "2026-01-02T00:01:00Z", "key": 3, "after": {"tier": "free"}},
           {"lsn": 103, "op": "d", "ts": "2026-01-02T00:02:00Z", "key": 4},
           {"lsn": 104, "op": "c", "ts": "2026-01-02T00:03:00Z", "key": 4,
            "after": {"email": None, "tier": "basic", "balance": "1", "country": None}}]
    s, c = hand_case(tmp_path, snap, evs)
    cur, hist = run(tmp_path, s, c)
    assert cur[1:] == [["4", "", "basic", "100", "", "2026-01-02T00:03:00Z"]]
    assert hist[1:] == [["3", "a@x.org", "gold", "700", "US", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"],
                        ["4", "b@x.org", "free", "10", "US", "2026-01-01T00:00:00Z", "2026-01-02T00:02:00Z"],
                        ["4", "", "basic", "100", "", "2026-01-02T00:03:00Z", ""]]


def test_snapshot_lsn_is_inclusive(tmp_path):
    snap = [[1, "a@x.org", "gold", 100, "DE", "2026-01-01T00:00:00Z"]]
    evs = [{"lsn": 99, "op": "u", "ts": "2025-12-31T23:00:00Z", "key": 1, "after": {"tier": "free"}},
           {"lsn": 100, "op": "u", "ts": "2025-12-31T23:59:00Z", "key": 1, "after": {"tier": "basic"}},
           {"lsn": 101, "op": "u", "ts": "2026-01-02T00:00:00Z", "key": 1, "after": {"balance": "2.5"}}]
    s, c = hand_case(tmp_path, snap, evs, snap_lsn=100)
    cur, hist = run(tmp_path, s, c)
    assert cur[1] == ["1", "a@x.org", "gold", "250", "DE", "2026-01-02T00:00:00Z"]
    assert len(hist) == 3
