"""Generates a central database and device databases that were synced from it at some point and then edited
offline. Used for the example in the image and (a copy) by the tests."""
import random
import sqlite3
import uuid as uuidlib
from datetime import datetime, timedelta, timezone

FORMATS = ["space", "z", "offset"]


def stamp(r, dt, fmt=None):
    fmt = fmt or r.choice(FORMATS)
    if fmt == "space":
        return dt.strftime("%Y-%m-%d %H:%M:%S")
    if fmt == "z":
        return dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    off = r.choice([-480, -300, 60, 120, 330, 600])
    local = dt + timedelta(minutes=off)
    sign = "+" if off >= 0 else "-"
    return local.strftime("%Y-%m-%dT%H:%M:%S") + f"{sign}{abs(off) // 60:02d}:{abs(off) % 60:02d}"


def write(path, schema, projects, tasks, r):
    """projects: {uuid: (name, ts, deleted)}; tasks: {uuid: (project uuid, title, done, ts, deleted, tags)}"""
    con = sqlite3.connect(path)
    con.executescript(schema)
    pid = {}
    ids = r.sample(range(1, 10 * len(projects) + 10), len(projects))
    for (u, (name, ts, dl)), i in zip(sorted(projects.items(), key=lambda kv: r.random()), ids):
        con.execute("INSERT INTO projects VALUES (?,?,?,?,?)", (i, u, name, ts, dl))
        pid[u] = i
    ids = r.sample(range(1, 10 * len(tasks) + 10), len(tasks))
    for (u, (pu, title, done, ts, dl, tags)), i in zip(sorted(tasks.items(), key=lambda kv: r.random()), ids):
        con.execute("INSERT INTO tasks VALUES (?,?,?,?,?,?,?)", (i, u, pid[pu], title, done, ts, dl))
        for t in tags:
            con.execute("INSERT INTO task_tags VALUES (?,?)", (i, t))
    con.commit()
    con.close()


def make(central_path, device_paths, schema, seed, n_proj=12, n_task=60):
    r = random.Random(seed)
    u = lambda: str(uuidlib.UUID(int=r.getrandbits(128)))
    t0 = datetime(2024, 3, 1, 12, 0, 0)
    projects = {u(): (f"Project {k}", t0 + timedelta(minutes=r.randint(0, 5000)), 0) for k in range(n_proj)}
    tasks = {}
    for k in range(n_task):
        tasks[u()] = (r.choice(list(projects)), f"Task {k} '{r.choice(['a', 'b'])}'", r.randint(0, 1),
                      t0 + timedelta(minutes=r.randint(0, 5000)), 0, sorted(r.sample(["home", "work", "urgent", "later"], r.randint(0, 2))))
    central_p = {k: (n, stamp(r, ts, "space"), d) for k, (n, ts, d) in projects.items()}
    central_t = {k: (p, ti, do, stamp(r, ts, "space"), d, tg) for k, (p, ti, do, ts, d, tg) in tasks.items()}
    devices = []
    for dev in range(len(device_paths)):
        dp = {k: v for k, v in projects.items()}
        dt = {k: v for k, v in tasks.items() if r.random() < 0.8}
        edits_p, edits_t = {}, {}
        for k in r.sample(list(dp), 4):                               # renamed or deleted projects
            n, ts, d = dp[k]
            edits_p[k] = (n + f" ({dev})", ts + timedelta(minutes=r.choice([-30, 0, 1, 90, 2000])), r.choice([0, 0, 1]))
        for k in r.sample(list(dt), min(15, len(dt))):                # edited tasks
            p, ti, do, ts, d, tg = dt[k]
            edits_t[k] = (r.choice([p, r.choice(list(dp))]), ti + f" v{dev}", 1 - do, ts + timedelta(minutes=r.choice([-60, 0, 5, 120, 3000])),
                          r.choice([0, 0, 0, 1]), sorted(set(tg) ^ {r.choice(["home", "work", "urgent", "new"])}))
        for k in range(3):                                           # created offline
            nu = u()
            edits_p[nu] = (f"New {dev}.{k}", t0 + timedelta(minutes=r.randint(0, 9000)), 0)
        for k in range(8):
            nu = u()
            edits_t[nu] = (r.choice(list(dp) + [x for x in edits_p if x not in dp]), f"Offline {dev}.{k}", 0,
                           t0 + timedelta(minutes=r.randint(0, 9000)), 0, sorted(r.sample(["home", "work", "x"], r.randint(0, 2))))
        dp.update(edits_p)
        dt.update(edits_t)
        devices.append(({k: (n, stamp(r, ts), d) for k, (n, ts, d) in dp.items()},
                        {k: (p, ti, do, stamp(r, ts), d, tg) for k, (p, ti, do, ts, d, tg) in dt.items()}))
    # a few central-side edits made after the devices went offline
    for k in r.sample(list(central_t), 6):
        p, ti, do, ts, d, tg = tasks[k]
        central_t[k] = (p, ti + " (web)", do, stamp(r, ts + timedelta(minutes=r.choice([0, 10, 100, 4000])), "space"), d, tg)
    write(central_path, schema, central_p, central_t, r)
    for path, (dp, dt) in zip(device_paths, devices):
        write(path, schema, dp, dt, r)
