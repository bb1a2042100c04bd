"""/app/sync/merge.py on central and device databases generated here (local ids shuffled per file, timestamps
in three spellings and several UTC offsets, edits older and newer than central's, ties, tombstones, records
created offline that reference each other, tags); the central result is compared by uuid with the rules."""
import hashlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from gen import make  # noqa: E402

TOOL = os.environ.get("MERGE", "/app/sync/merge.py")
SCHEMA = (HERE / "schema.sql").read_text()
SEED = int.from_bytes(os.urandom(4), "big")


def digest(p):
    return hashlib.sha256(Path(p).read_bytes()).hexdigest()


def run(central, *devices):
    return subprocess.run([sys.executable, TOOL, str(central), *map(str, devices)], capture_output=True, text=True, timeout=120)


def utc(s):
    if s.endswith("Z"):
        return datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ")
    if "T" in s:
        dt = datetime.strptime(s[:19], "%Y-%m-%dT%H:%M:%S")
        sign = 1 if s[19] == "+" else -1
        return dt - sign * timedelta(hours=int(s[20:22]), minutes=int(s[23:25]))
    return datetime.strptime(s, "%Y-%m-%d %H:%M:%S")


def logical(path):
    """{uuid: version} for projects and tasks, with references and tags by uuid, times as UTC datetimes."""
    con = sqlite3.connect(path)
    pu = dict(con.execute("SELECT id, uuid FROM projects"))
    projects = {u: (utc(ts), name, dl) for u, name, ts, dl in con.execute("SELECT uuid, name, updated_at, deleted FROM projects")}
    tags = {}
    for t, tag in con.execute("SELECT task_id, tag FROM task_tags"):
        tags.setdefault(t, set()).add(tag)
    tasks = {u: (utc(ts), pu[p], title, done, dl, tuple(sorted(tags.get(i, ()))))
             for i, u, p, title, done, ts, dl in con.execute("SELECT id, uuid, project_id, title, done, updated_at, deleted FROM tasks")}
    con.close()
    return projects, tasks


def expected(central, devices):
    srcs = [logical(central)] + [logical(d) for d in devices]
    out = []
    for k in (0, 1):
        best = {}
        for s in srcs:
            for u, v in s[k].items():
                if u not in best or v[0] > best[u][0]:
                    best[u] = v
        out.append(best)
    return out


@pytest.fixture()
def world(tmp_path):
    c = tmp_path / "central.db"
    devs = [tmp_path / f"dev{k}.db" for k in range(3)]
    make(str(c), [str(d) for d in devs], SCHEMA, SEED)
    return c, devs


def test_merge_follows_last_writer_wins(world):
    c, devs = world
    want = expected(c, devs)
    p = run(c, *devs)
    assert p.returncode == 0, f"merge.py failed: {p.stderr[-800:]}"
    got = logical(c)
    assert got[0] == want[0], f"projects differ from the rules (seed {SEED})"
    for u in want[1]:
        assert got[1].get(u) == want[1][u], f"task {u}: {got[1].get(u)} != {want[1][u]} (seed {SEED})"
    assert set(got[1]) == set(want[1])


def test_ids_and_timestamps_in_central(world):
    c, devs = world
    con = sqlite3.connect(c)
    old_p = dict(con.execute("SELECT uuid, id FROM projects"))
    old_t = dict(con.execute("SELECT uuid, id FROM tasks"))
    con.close()
    assert run(c, *devs).returncode == 0
    con = sqlite3.connect(c)
    new_p = dict(con.execute("SELECT uuid, id FROM projects"))
    new_t = dict(con.execute("SELECT uuid, id FROM tasks"))
    for old, new in ((old_p, new_p), (old_t, new_t)):
        assert all(new[u] == i for u, i in old.items()), "existing central rows must keep their ids"
        assert all(i > max(old.values()) for u, i in new.items() if u not in old), "new rows get ids above the existing ones"
    for (ts,) in con.execute("SELECT updated_at FROM projects UNION ALL SELECT updated_at FROM tasks"):
        datetime.strptime(ts, "%Y-%m-%d %H:%M:%S")
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_rerun_changes_nothing_and_devices_untouched(world):
    c, devs = world
    dd = [digest(d) for d in devs]
    assert run(c, *devs).returncode == 0
    once = digest(c)
    assert run(c, *devs).returncode == 0
    assert digest(c) == once, "merging the same devices again must leave central byte for byte unchanged"
    assert [digest(d) for d in devs] == dd, "device files must not be modified"


def small_world(tmp_path, stamps):
    """central with one project P; each device has P and a task T with the given updated_at."""
    c = tmp_path / "c.db"
    con = sqlite3.connect(c)
    con.executescript(SCHEMA)
    con.execute("INSERT INTO projects VALUES (1, 'p-uuid', 'P', '2024-01-01 00:00:00', 0)")
    con.execute("INSERT INTO tasks VALUES (1, 't-uuid', 1, 'central', 0, '2024-05-01 10:00:00', 0)")
    con.execute("INSERT INTO task_tags VALUES (1, 'c')")
    con.commit()
    con.close()
    devs = []
    for k, ts in enumerate(stamps):
        d = tmp_path / f"d{k}.db"
        con = sqlite3.connect(d)
        con.executescript(SCHEMA)
        con.execute("INSERT INTO projects VALUES (7, 'p-uuid', 'P', '2024-01-01 00:00:00', 0)")
        con.execute("INSERT INTO tasks VALUES (?, 't-uuid', 7, ?, 1, ?, 0)", (20 + k, f"dev{k}", ts))
        con.execute("INSERT INTO task_tags VALUES (?, ?)", (20 + k, f"d{k}"))
        con.commit()
        con.close()
        devs.append(d)
    return c, devs


def task_state(c):
    con = sqlite3.connect(c)
    row = con.execute("SELECT id, title, updated_at FROM tasks WHERE uuid = 't-uuid'").fetchone()
    tags = [r[0] for r in con.execute("SELECT tag FROM task_tags WHERE task_id = ? ORDER BY tag", (row[0],))]
    return row, tags


def test_ties_and_offsets(tmp_path):
    # the same instant spelled three ways: central wins a tie
    c, devs = small_world(tmp_path, ["2024-05-01T12:00:00+02:00", "2024-05-01T10:00:00Z"])
    assert run(c, *devs).returncode == 0
    assert task_state(c) == ((1, "central", "2024-05-01 10:00:00"), ["c"])
    # between devices, the one named first wins a tie; a later instant beats both
    (tmp_path / "b").mkdir()
    c, devs = small_world(tmp_path / "b", ["2024-05-01T05:30:00-05:00", "2024-05-01T16:00:00+05:30", "2024-05-01T10:29:59Z"])
    c2 = tmp_path / "b" / "c2.db"
    shutil.copy(c, c2)
    assert run(c, *devs).returncode == 0
    assert task_state(c) == ((1, "dev0", "2024-05-01 10:30:00"), ["d0"])
    assert run(c2, devs[2], devs[1], devs[0]).returncode == 0
    assert task_state(c2) == ((1, "dev1", "2024-05-01 10:30:00"), ["d1"])


@pytest.mark.parametrize("damage", ["orphan", "timestamp"])
def test_bad_device_refused(world, damage):
    c, devs = world
    con = sqlite3.connect(devs[1])
    if damage == "orphan":
        con.execute("INSERT INTO tasks (uuid, project_id, title, updated_at) VALUES ('zz-orphan', 987654, 'x', '2030-01-01 00:00:00')")
    else:
        con.execute("UPDATE tasks SET updated_at = 'yesterday' WHERE id = (SELECT min(id) FROM tasks)")
    con.commit()
    con.close()
    before = digest(c)
    p = run(c, *devs)
    assert p.returncode != 0, "a device with a broken row must make the whole merge fail"
    assert digest(c) == before, "central must be left exactly as it was"
