"""/app/resync.py on primary/replica pairs that drifted apart here at random; its patch is run on the replica
with foreign keys enforced, while temporary triggers record every row it touches (cascades included)."""
import hashlib
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from drift import Drift  # noqa: E402

TOOL = os.environ.get("RESYNC", "/app/resync.py")
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
KEYS = {"users": "old.id", "teams": "old.id", "memberships": "old.user_id || ',' || old.team_id"}


def digest(p):
    return hashlib.sha256(Path(p).read_bytes()).hexdigest()


def rows(path):
    con = sqlite3.connect(path)
    out = {t: set(con.execute(f"SELECT * FROM {t}")) for t in KEYS}
    con.close()
    return out


def key_of(t, row):
    return str(row[0]) if t != "memberships" else f"{row[0]},{row[1]}"


def differing(p, r):
    """Keys of rows that are not identical in both databases."""
    out = {}
    for t in KEYS:
        pk = {key_of(t, x): x for x in p[t]}
        rk = {key_of(t, x): x for x in r[t]}
        out[t] = {k for k in pk.keys() | rk.keys() if pk.get(k) != rk.get(k)}
    return out


def statements(sql):
    out, cur = [], ""
    for line in sql.splitlines(keepends=True):
        cur += line
        if sqlite3.complete_statement(cur):
            out.append(cur.strip())
            cur = ""
    assert not cur.strip(), f"incomplete statement at the end of the patch: {cur[:200]!r}"
    return [s for s in out if s.strip(" ;\n")]


def resync(primary, replica):
    """Run the tool, apply its patch to the replica, and return (touched keys, number of statements)."""
    before = digest(primary), digest(replica)
    r = subprocess.run([sys.executable, TOOL, str(primary), str(replica)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (digest(primary), digest(replica)) == before, "resync.py must not modify its inputs"
    stmts = statements(r.stdout)
    for s in stmts:
        assert s.split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE"), f"not a row statement: {s[:200]}"
    con = sqlite3.connect(replica, isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    con.execute("CREATE TEMP TABLE touched (t TEXT, k TEXT)")
    for t, k in KEYS.items():
        for ev, ref in (("INSERT", k.replace("old.", "new.")), ("UPDATE", k), ("DELETE", k)):
            con.execute(f"CREATE TEMP TRIGGER log_{t}_{ev} AFTER {ev} ON main.{t} "
                        f"BEGIN INSERT INTO touched VALUES ('{t}', {ref}); END")
    con.execute("BEGIN")
    for s in stmts:
        try:
            con.execute(s)
        except sqlite3.Error as e:
            pytest.fail(f"patch statement failed (seed {SEED}): {s[:300]} -> {e}")
    touched = {}
    for t, k in con.execute("SELECT t, k FROM touched"):
        touched.setdefault(t, set()).add(str(k))
    con.execute("COMMIT")
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    con.close()
    return touched, len(stmts)


def check_pair(primary, replica):
    p, r = rows(primary), rows(replica)
    diff = differing(p, r)
    touched, n = resync(primary, replica)
    assert rows(replica) == p, f"the replica differs from the primary after the patch (seed {SEED})"
    for t in KEYS:
        extra = touched.get(t, set()) - diff[t]
        assert not extra, f"the patch touched {t} rows that were equal in both databases: {sorted(extra)[:10]} (seed {SEED})"
    return n


def pair(tmp_path, n_p, n_r, weights=None, **kw):
    d = Drift(random.Random(RNG.getrandbits(64)), **kw)
    base = d.base(tmp_path / "base.db")
    return d.drifted(base, tmp_path / "primary.db", n_p, weights), d.drifted(base, tmp_path / "replica.db", n_r, weights)


@pytest.mark.parametrize("n", [(60, 10), (25, 40)])
def test_random_drift(tmp_path, n):
    check_pair(*pair(tmp_path, *n))


def test_unique_values_rotated(tmp_path):
    #           add_user del_user rot_email rename manager m_cycle add_team del_team rot_slug lead add_m del_m role new_email
    weights = [0, 0, 10, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 2]
    check_pair(*pair(tmp_path, 12, 3, weights))


def test_users_that_lead_and_manage_are_deleted(tmp_path):
    weights = [3, 8, 1, 0, 2, 4, 1, 1, 0, 4, 2, 0, 0, 1]
    check_pair(*pair(tmp_path, 40, 15, weights, n_users=50))


def test_new_users_managing_each_other(tmp_path):
    weights = [10, 1, 0, 0, 1, 6, 2, 0, 0, 3, 3, 0, 0, 0]
    check_pair(*pair(tmp_path, 50, 0, weights))


def test_identical_databases_need_no_statements(tmp_path):
    primary, _ = pair(tmp_path, 20, 0)
    copy = tmp_path / "copy.db"
    copy.write_bytes(primary.read_bytes())
    assert check_pair(primary, copy) == 0
