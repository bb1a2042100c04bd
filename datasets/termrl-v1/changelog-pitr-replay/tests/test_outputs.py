"""/app/replay.py on changelogs of simulated primaries (concurrent transactions, savepoints, key changes,
DDL) generated here; the result is compared with a database holding exactly the committed transactions."""
import hashlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from workload import Primary, snapshot  # noqa: E402

TOOL = os.environ.get("REPLAY", "/app/replay.py")
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)


def replay(db, log, until=None):
    cmd = [sys.executable, TOOL, str(db), str(log)] + ([] if until is None else ["--until", str(until)])
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def digest(p):
    return hashlib.sha256(Path(p).read_bytes()).hexdigest()


def primary(steps=900, **kw):
    p = Primary(random.Random(RNG.getrandbits(64)), **kw)
    p.run(steps)
    return p


def straddling_lsn(p, lo, hi):
    """An LSN in [lo, hi] at which at least two transactions are open (prefer it)."""
    counts = p.open_counts()
    cands = [lsn for lsn in range(lo, hi) if counts[lsn] >= 2]
    return RNG.choice(cands) if cands else RNG.randint(lo, hi)


def committed_count(p, start, end):
    return sum(1 for c, _ in p.committed if start < c <= end)


def check(p, db, lsn, tmp_path):
    want = p.state_db(tmp_path / f"want-{lsn}-{RNG.random()}.db", lsn)
    assert snapshot(db) == snapshot(want), f"database differs from the state at lsn {lsn} (seed {SEED})"


def test_replay_from_a_mid_stream_snapshot(tmp_path):
    p = primary()
    p.finish()
    end = p.lsn
    start = straddling_lsn(p, end // 4, end // 2)
    db = p.state_db(tmp_path / "replica.db", start)
    log = tmp_path / "log"
    p.write_log(log, RNG.randint(40, 200))
    r = replay(db, log)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"replayed {committed_count(p, start, end)} transactions, now at lsn {end}"
    check(p, db, end, tmp_path)


def test_until_in_steps(tmp_path):
    p = primary(1200)
    end = p.lsn          # transactions still open at the end of the log are not applied
    start = straddling_lsn(p, 50, end // 3)
    db = p.state_db(tmp_path / "replica.db", start)
    log = tmp_path / "log"
    p.write_log(log, RNG.randint(50, 300))
    a = straddling_lsn(p, start + 1, (start + end) // 2)
    b = straddling_lsn(p, a, end - 1)
    for target in (a, a, b, None):
        r = replay(db, log, target)
        assert r.returncode == 0, r.stderr
        lsn = end if target is None else target
        check(p, db, lsn, tmp_path)
        assert sqlite3.connect(db).execute("SELECT lsn FROM _replica").fetchall() == [(lsn,)]
    assert replay(db, log).stdout.strip() == f"replayed 0 transactions, now at lsn {end}"


def test_savepoints_and_rollbacks(tmp_path):
    p = primary(1000, savepoint_rate=0.2, ddl=False)
    p.finish()
    assert p.events["rollback_to"] >= 5 and p.events["rollback"] >= 3, p.events
    db = p.state_db(tmp_path / "replica.db", 0)
    log = tmp_path / "log"
    p.write_log(log, 10 ** 6)
    r = replay(db, log)
    assert r.returncode == 0, r.stderr
    check(p, db, p.lsn, tmp_path)


def test_schema_changes_and_key_changes(tmp_path):
    for _ in range(20):
        p = primary(1500)
        if p.events["ddl"] >= 2 and p.events["pk_change"] >= 3:
            break
    p.finish()
    first_ddl = next(r["lsn"] for r in p.records if r["op"] == "ddl")
    start = RNG.randint(1, first_ddl - 1)
    db = p.state_db(tmp_path / "replica.db", start)
    log = tmp_path / "log"
    p.write_log(log, RNG.randint(100, 400))
    r = replay(db, log)
    assert r.returncode == 0, r.stderr
    check(p, db, p.lsn, tmp_path)


def test_torn_last_record_is_ignored(tmp_path):
    p = primary(700)
    p.finish()
    db = p.state_db(tmp_path / "replica.db", p.lsn // 3)
    log = tmp_path / "log"
    segs = p.write_log(log, RNG.randint(60, 200))
    with segs[-1].open("a") as f:
        f.write('{"lsn": %d, "tx": 99999, "op": "beg' % (p.lsn + 1))
    r = replay(db, log)
    assert r.returncode == 0, r.stderr
    check(p, db, p.lsn, tmp_path)


def test_gaps_corruption_and_rewind_are_refused(tmp_path):
    p = primary(800)
    p.finish()
    start = p.lsn // 3
    log = tmp_path / "log"
    segs = p.write_log(log, 100)
    db = p.state_db(tmp_path / "replica.db", start)
    before = digest(db)
    # a missing segment
    k = RNG.randrange(1, len(segs) - 1)
    hole = segs[k].read_text()
    segs[k].unlink()
    r = replay(db, log)
    assert r.returncode == 1 and r.stderr.strip().splitlines()[-1] == f"changelog gap after lsn {100 * k}"
    assert digest(db) == before
    segs[k].write_text(hole)
    # a damaged record in the middle
    lines = segs[k].read_text().splitlines(keepends=True)
    j = RNG.randrange(len(lines))
    lines[j] = lines[j][: len(lines[j]) // 2] + "\n"
    segs[k].write_text("".join(lines))
    r = replay(db, log)
    assert r.returncode == 1 and r.stderr.strip().splitlines()[-1] == f"corrupt changelog record after lsn {100 * k + j}"
    assert digest(db) == before
    segs[k].write_text(hole)
    # going backwards, or past the end
    r = replay(db, log, start - 1)
    assert r.returncode == 1 and r.stderr.strip().splitlines()[-1] == f"cannot rewind: database is at lsn {start}"
    r = replay(db, log, p.lsn + 5)
    assert r.returncode == 1 and r.stderr.strip().splitlines()[-1] == f"changelog ends at lsn {p.lsn}"
    assert digest(db) == before


def test_divergence_aborts_everything(tmp_path):
    p = primary(900)
    p.finish()
    start = p.lsn // 4
    db = p.state_db(tmp_path / "replica.db", start)
    log = tmp_path / "log"
    p.write_log(log, 150)
    # a row present at the snapshot whose first later change (in commit order) is an update or delete
    con = sqlite3.connect(db)
    first_touch = {}
    for clsn, ops in p.committed:
        if clsn <= start:
            continue
        for op in ops:
            if op["op"] in ("update", "delete", "insert") and op["table"] == "accounts":
                k = op["key"]["id"] if "key" in op else op["row"]["id"]
                first_touch.setdefault(k, op)
    cands = [(k, op) for k, op in first_touch.items() if op["op"] != "insert"
             and con.execute("SELECT 1 FROM accounts WHERE id = ?", (k,)).fetchone()]
    assert cands, f"seed {SEED}"
    # the earliest divergence in commit order is the one reported
    order = {id(op): i for i, op in enumerate(op for c, ops in p.committed if c > start for op in ops)}
    late = sorted(cands, key=lambda c: order[id(c[1])])[len(cands) // 2:]   # earlier transactions apply cleanly first
    victims = RNG.sample(late, min(3, len(late)))
    for k, _ in victims:
        con.execute("DELETE FROM accounts WHERE id = ?", (k,))
    con.commit()
    con.close()
    first = min((op for _, op in victims), key=lambda op: order[id(op)])
    before = digest(db)
    r = replay(db, log)
    assert r.returncode == 1
    assert r.stderr.strip().splitlines()[-1].startswith(f"divergence at lsn {first['lsn']}")
    assert digest(db) == before
