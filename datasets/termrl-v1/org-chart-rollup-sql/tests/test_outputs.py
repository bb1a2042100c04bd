"""/app/rollup.sql run with `sqlite3 -safe -bail -header -csv` on org charts generated here (several tops,
orphaned manager ids, loops of one to four people with employees below them, deep chains, names with
quotes and commas) and compared with the hierarchy computed in Python."""
import csv
import hashlib
import io
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from orggen import make  # noqa: E402

SQL = Path(os.environ.get("ROLLUP_SQL", "/app/rollup.sql"))
SCHEMA = (HERE / "schema.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")
RNG = random.Random(SEED)
HEADER = ["id", "name", "depth", "chain", "direct_reports", "total_reports", "team_salary_cents", "detached"]


def expected(db):
    con = sqlite3.connect(db)
    emp = {i: (n, m, s) for i, n, m, s in con.execute("SELECT id, name, manager_id, salary_cents FROM employees")}
    con.close()
    kids = {}
    for i, (_, m, _) in emp.items():
        kids.setdefault(m, []).append(i)
    info = {}
    stack = [(i, 0, emp[i][0]) for i, (_, m, _) in emp.items() if m is None or m not in emp]
    while stack:
        i, d, chain = stack.pop()
        info[i] = (d, chain)
        for c in kids.get(i, []):
            stack.append((c, d + 1, chain + " > " + emp[c][0]))

    def below(i):
        out, todo = [], list(kids.get(i, []))
        while todo:
            c = todo.pop()
            out.append(c)
            todo.extend(kids.get(c, []))
        return out

    rows = [HEADER]
    for i in sorted(emp):
        n, m, s = emp[i]
        if i in info:
            b = below(i)
            rows.append([str(i), n, str(info[i][0]), info[i][1], str(len(kids.get(i, []))), str(len(b)),
                         str(s + sum(emp[c][2] for c in b)), "0"])
        else:
            rows.append([str(i), n, "", "", "", "", "", "1"])
    return rows


def report(db):
    before = hashlib.sha256(Path(db).read_bytes()).hexdigest()
    p = subprocess.run(["sqlite3", "-safe", "-bail", "-header", "-csv", str(db)], stdin=SQL.open("rb"), capture_output=True, timeout=120)
    assert p.returncode == 0, f"rollup.sql failed: {p.stderr.decode(errors='replace')[-600:]}"
    assert hashlib.sha256(Path(db).read_bytes()).hexdigest() == before, "the script modified the database"
    return list(csv.reader(io.StringIO(p.stdout.decode())))


def compare(got, want):
    assert got and got[0] == HEADER, f"header: {got[:1]}"
    assert len(got) == len(want), f"{len(got) - 1} rows, expected {len(want) - 1} (seed {SEED})"
    for k, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"row {k}: {g} != {w} (seed {SEED})"


@pytest.mark.parametrize("n", [150, 400])
def test_random_org_charts(tmp_path, n):
    db = tmp_path / "o.db"
    make(db, SCHEMA, RNG.getrandbits(32), n=n)
    compare(report(db), expected(db))


def crafted(tmp_path, rows):
    db = tmp_path / "c.db"
    con = sqlite3.connect(db)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO employees VALUES (?,?,?,?)", rows)
    con.commit()
    con.close()
    return db


def test_loops_and_orphans(tmp_path):
    db = crafted(tmp_path, [(1, "Boss", None, 100), (2, 'Ann "A", Lee', 1, 10), (3, "Cy", 2, 1), (4, "Loop", 4, 5),
                            (5, "Ring1", 6, 7), (6, "Ring2", 5, 7), (7, "Under", 5, 2), (8, "Orphan", 99, 50), (9, "Kid", 8, 5)])
    got = report(db)
    compare(got, expected(db))
    assert got[1:] == [["1", "Boss", "0", "Boss", "1", "2", "111", "0"],
                       ["2", 'Ann "A", Lee', "1", 'Boss > Ann "A", Lee', "1", "1", "11", "0"],
                       ["3", "Cy", "2", 'Boss > Ann "A", Lee > Cy', "0", "0", "1", "0"],
                       ["4", "Loop", "", "", "", "", "", "1"],
                       ["5", "Ring1", "", "", "", "", "", "1"],
                       ["6", "Ring2", "", "", "", "", "", "1"],
                       ["7", "Under", "", "", "", "", "", "1"],
                       ["8", "Orphan", "0", "Orphan", "1", "1", "55", "0"],
                       ["9", "Kid", "1", "Orphan > Kid", "0", "0", "5", "0"]], got


def test_deep_chain(tmp_path):
    rows = [(1, "E1", None, 1)] + [(k, f"E{k}", k - 1, 1) for k in range(2, 121)]
    db = crafted(tmp_path, rows)
    got = report(db)
    compare(got, expected(db))
    assert got[1][5:7] == ["119", "120"] and got[-1][2] == "119"


def test_everyone_in_loops(tmp_path):
    db = crafted(tmp_path, [(10, "A", 11, 1), (11, "B", 12, 1), (12, "C", 10, 1), (13, "D", 12, 1), (14, "E", 14, 1)])
    got = report(db)
    compare(got, expected(db))
    assert all(r[2:] == ["", "", "", "", "", "1"] for r in got[1:])


def test_wide_team(tmp_path):
    rows = [(1, "Top", None, 1000)] + [(k, f"M{k}", 1, 100) for k in range(2, 12)] + [(k, f"W{k}", 2 + k % 10, 1) for k in range(12, 112)]
    db = crafted(tmp_path, rows)
    got = report(db)
    compare(got, expected(db))
    assert got[1][4:7] == ["10", "110", str(1000 + 10 * 100 + 100)]
