import json
import random
import sqlite3
import subprocess

import pytest

SCHEMA = "/app/schema.sql"
TOOL = "/app/gtid_apply.py"
UA = "3e11fa47-71ca-11e1-9e33-c80aa9429562"
UB = "a0b1c2d3-0000-4000-8000-00000000000b"
UC = "f00dfeed-1234-4abc-9def-0123456789ab"


class Primary:
    """Generates a primary's history of transactions and tracks the resulting table."""

    def __init__(self, seed):
        self.rnd = random.Random(seed)
        self.rows = {}
        self.next_id = 1
        self.seq = {}
        self.log = []  # (gtid, events)
        self.frozen = set()  # rows of late-arriving transactions: never touched again

    def tx(self, uuid, kinds=None, independent=False):
        r = self.rnd
        events = []
        for _ in range(r.randint(1, 3)):
            free = sorted(set(self.rows) - self.frozen)
            kind = "insert" if independent or not free else r.choice(kinds or ["insert", "update", "update", "delete", "rekey"])
            if kind == "insert":
                row = {"id": self.next_id + (5000 if independent else 0), "owner": r.choice(["ann", "bo", "cy", "dee", "Émile"]),
                       "balance": r.randint(-500, 10_000)}
                self.next_id += 1
                self.rows[row["id"]] = row
                if independent:
                    self.frozen.add(row["id"])
                events.append({"op": "insert", "row": dict(row)})
            else:
                i = r.choice(free)
                before = dict(self.rows[i])
                if kind == "delete":
                    del self.rows[i]
                    events.append({"op": "delete", "before": before})
                else:
                    after = dict(before)
                    if kind == "rekey":
                        after["id"] = 100_000 + self.next_id
                        self.next_id += 1
                    else:
                        after["balance"] += r.randint(-300, 300)
                        if r.random() < 0.3:
                            after["owner"] = r.choice(["ann", "bo", "zed"])
                    del self.rows[i]
                    self.rows[after["id"]] = after
                    events.append({"op": "update", "before": before, "after": after})
        self.seq[uuid] = self.seq.get(uuid, 0) + 1
        gtid = f"{uuid}:{self.seq[uuid]}"
        self.log.append((gtid, events))
        return gtid


def fresh(path):
    subprocess.run(f"sqlite3 {path} < {SCHEMA}", shell=True, check=True)


def feed(db, tmp, txs, name):
    p = tmp / name
    p.write_text("".join(json.dumps({"gtid": g, "events": e}) + "\n" for g, e in txs))
    return subprocess.run(["python3", TOOL, str(db), str(p)], capture_output=True, text=True, timeout=600)


def table(db):
    con = sqlite3.connect(db)
    rows = con.execute("SELECT id, owner, balance FROM accounts ORDER BY id").fetchall()
    gt = dict(con.execute("SELECT source_uuid, intervals FROM _gtid_executed").fetchall())
    con.close()
    return rows, gt


def expect_rows(p):
    return sorted((r["id"], r["owner"], r["balance"]) for r in p.rows.values())


def history_with_gap(seed):
    """A:1..40 where A:25 and A:31 only insert fresh rows (so they can arrive late)."""
    p = Primary(seed)
    for n in range(1, 41):
        p.tx(UA, independent=n in (25, 31))
    for _ in range(15):
        p.tx(UB)
    return p


def test_in_order_stream(tmp_path):
    p = Primary(1)
    for _ in range(60):
        p.tx(UA)
    db = tmp_path / "r.db"
    fresh(db)
    r = feed(db, tmp_path, p.log, "all.jsonl")
    assert r.returncode == 0, r.stderr
    rows, gt = table(db)
    assert rows == expect_rows(p)
    assert gt == {UA: "1-60"}


def test_redelivery_and_failover(tmp_path):
    p = history_with_gap(2)
    A = p.log[:40]
    B = p.log[40:]
    db = tmp_path / "r.db"
    fresh(db)
    gap = {24, 30}
    batches = [
        [t for i, t in enumerate(A[:28]) if i not in gap],
        [t for i, t in enumerate(A[20:], 20) if i not in gap],  # overlap; A:25 and A:31 still missing
        A[35:] + B[:6] + [A[24]],  # new primary resends A:36..40, the late A:25 arrives
        B[3:] + [A[30]] + A[:5],
    ]
    wants = ["1-24:26-28", "1-24:26-30:32-40", "1-30:32-40", "1-40"]
    for k, (batch, want) in enumerate(zip(batches, wants)):
        r = feed(db, tmp_path, batch, f"b{k}.jsonl")
        assert r.returncode == 0, r.stderr
        assert table(db)[1][UA] == want
    rows, gt = table(db)
    assert rows == expect_rows(p)
    assert gt == {UA: "1-40", UB: "1-15"}


def test_rerun_is_idempotent(tmp_path):
    p = history_with_gap(3)
    db = tmp_path / "r.db"
    fresh(db)
    assert feed(db, tmp_path, p.log, "x.jsonl").returncode == 0
    before = table(db)
    r = feed(db, tmp_path, list(reversed(p.log)), "y.jsonl")
    assert r.returncode == 0, r.stderr
    assert table(db) == before


def test_existing_executed_set_is_respected(tmp_path):
    p = Primary(4)
    for _ in range(20):
        p.tx(UA)
    for _ in range(5):
        p.tx(UC)
    db = tmp_path / "r.db"
    fresh(db)
    # the replica was restored from a backup taken after A:1..12 (written non-canonically by an old tool)
    q = Primary(4)
    for _ in range(12):
        q.tx(UA)
    con = sqlite3.connect(db)
    con.executemany("INSERT INTO accounts VALUES (?, ?, ?)", expect_rows(q))
    con.execute("INSERT INTO _gtid_executed VALUES (?, ?)", (UA, "1-4:5-9:10:11-12"))
    con.execute("INSERT INTO _gtid_executed VALUES (?, ?)", (UB, "1-3:4-7"))
    con.commit()
    con.close()
    r = feed(db, tmp_path, p.log, "all.jsonl")  # A:1..12 must be skipped: their inserts would clash
    assert r.returncode == 0, r.stderr
    rows, gt = table(db)
    assert rows == expect_rows(p)
    assert gt == {UA: "1-20", UB: "1-3:4-7", UC: "1-5"}


def test_conflict_stops_atomically(tmp_path):
    p = Primary(5)
    for _ in range(10):
        p.tx(UA)
    db = tmp_path / "r.db"
    fresh(db)
    assert feed(db, tmp_path, p.log[:10], "ok.jsonl").returncode == 0
    good = table(db)
    victim = sorted(p.rows)[0]
    row = p.rows[victim]
    bad = [
        (f"{UA}:11", [{"op": "insert", "row": {"id": 999_999, "owner": "new", "balance": 1}}]),
        (f"{UA}:12", [{"op": "update", "before": dict(row), "after": dict(row, balance=row["balance"] + 5)},
                      {"op": "delete", "before": dict(row, balance=row["balance"] - 1)}]),  # stale image
        (f"{UA}:13", [{"op": "insert", "row": {"id": 888_888, "owner": "late", "balance": 2}}]),
    ]
    r = feed(db, tmp_path, bad, "bad.jsonl")
    assert r.returncode == 3
    rows, gt = table(db)
    assert gt == {UA: "1-11"}
    assert rows == sorted(good[0] + [(999_999, "new", 1)])


def test_insert_of_existing_key_conflicts(tmp_path):
    p = Primary(6)
    for _ in range(5):
        p.tx(UA, kinds=["insert"])
    db = tmp_path / "r.db"
    fresh(db)
    assert feed(db, tmp_path, p.log, "ok.jsonl").returncode == 0
    first = sorted(p.rows.values(), key=lambda r: r["id"])[0]
    r = feed(db, tmp_path, [(f"{UB}:1", [{"op": "insert", "row": dict(first)}])], "dup.jsonl")
    assert r.returncode == 3
    assert UB not in table(db)[1]
