#!/bin/bash
# Mistake: versions are compared by their updated_at text; with 'Z', offsets and the space form mixed, the
# lexically larger string is often not the later instant.
set -e
cat > /app/sync/merge.py <<'PYEOF'
#!/usr/bin/env python3
"""Merge offline device databases into the central database (last writer wins, by uuid).

    python3 merge.py CENTRAL DEVICE...
"""
import re
import sqlite3
import sys
from datetime import datetime, timedelta

TS = re.compile(r"(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(Z|[+-]\d{2}:\d{2})?$")


def instant(s, where):
    m = TS.match(s or "")
    if not m or (m.group(3) is None and "T" in s) or (m.group(3) is not None and " " in s):
        raise ValueError(f"{where}: bad updated_at {s!r}")
    dt = datetime.strptime(m.group(1) + " " + m.group(2), "%Y-%m-%d %H:%M:%S")
    off = m.group(3)
    if off and off != "Z":
        sign = 1 if off[0] == "+" else -1
        dt -= sign * timedelta(hours=int(off[1:3]), minutes=int(off[4:6]))
    return dt


def load(path):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    if con.execute("PRAGMA foreign_key_check").fetchall():
        raise ValueError(f"{path}: foreign-key violations")
    puuid = {}
    projects = {}
    for pid, u, name, ts, dl in con.execute("SELECT id, uuid, name, updated_at, deleted FROM projects"):
        puuid[pid] = u
        instant(ts, f"{path} project {u}")
        projects[u] = (ts, (name, dl))
    tags = {}
    for tid, tag in con.execute("SELECT task_id, tag FROM task_tags"):
        tags.setdefault(tid, set()).add(tag)
    tasks = {}
    for tid, u, pid, title, done, ts, dl in con.execute("SELECT id, uuid, project_id, title, done, updated_at, deleted FROM tasks"):
        instant(ts, f"{path} task {u}")
        tasks[u] = (ts, (puuid[pid], title, done, dl, frozenset(tags.get(tid, ()))))
    con.close()
    return projects, tasks


def winners(sources):
    out = {}
    for projects_or_tasks in sources:
        for u, (t, val) in projects_or_tasks.items():
            if u not in out or t > out[u][0]:
                out[u] = (t, val)
    return out


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    central, devices = sys.argv[1], sys.argv[2:]
    try:
        srcs = [load(central)] + [load(d) for d in devices]
    except (ValueError, KeyError, sqlite3.Error) as e:
        print(f"error: {e}; nothing merged", file=sys.stderr)
        return 1
    con = sqlite3.connect(central, isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    con.execute("BEGIN IMMEDIATE")
    try:
        cur_p, cur_t = srcs[0]
        pid = {u: i for i, u in con.execute("SELECT id, uuid FROM projects")}
        fmt = lambda t: instant(t, "").strftime("%Y-%m-%d %H:%M:%S")
        for u, (t, (name, dl)) in sorted(winners([s[0] for s in srcs]).items()):
            if u in cur_p and cur_p[u][0] == t:
                continue                                   # central's own version won
            if u in pid:
                con.execute("UPDATE projects SET name = ?, updated_at = ?, deleted = ? WHERE id = ?", (name, fmt(t), dl, pid[u]))
            else:
                pid[u] = con.execute("INSERT INTO projects (uuid, name, updated_at, deleted) VALUES (?,?,?,?)", (u, name, fmt(t), dl)).lastrowid
        tid = {u: i for i, u in con.execute("SELECT id, uuid FROM tasks")}
        for u, (t, (pu, title, done, dl, tags)) in sorted(winners([s[1] for s in srcs]).items()):
            if u in cur_t and cur_t[u][0] == t:
                continue
            if u in tid:
                con.execute("UPDATE tasks SET project_id = ?, title = ?, done = ?, updated_at = ?, deleted = ? WHERE id = ?",
                            (pid[pu], title, done, fmt(t), dl, tid[u]))
                old = {r[0] for r in con.execute("SELECT tag FROM task_tags WHERE task_id = ?", (tid[u],))}
                for tag in old - tags:
                    con.execute("DELETE FROM task_tags WHERE task_id = ? AND tag = ?", (tid[u], tag))
            else:
                tid[u] = con.execute("INSERT INTO tasks (uuid, project_id, title, done, updated_at, deleted) VALUES (?,?,?,?,?,?)",
                                     (u, pid[pu], title, done, fmt(t), dl)).lastrowid
                old = set()
            for tag in sorted(tags - old):
                con.execute("INSERT INTO task_tags VALUES (?,?)", (tid[u], tag))
        if con.execute("PRAGMA foreign_key_check").fetchall():
            raise sqlite3.IntegrityError("foreign-key violations after the merge")
        con.execute("COMMIT")
    except Exception as e:
        con.execute("ROLLBACK")
        print(f"error: merge failed, central unchanged: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
PYEOF
