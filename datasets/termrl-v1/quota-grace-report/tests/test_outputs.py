"""/app/quotarep on trees and quota files generated here, over sequences of runs; expected usage is
measured here with lstat, statuses follow the instruction's rules."""
import os
import random
import subprocess
from datetime import datetime, timedelta
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/quotarep"
T0 = datetime(2027, 3, 1, 8, 30, 0)


def run(conf, tree, state, now):
    r = subprocess.run([TOOL, str(conf), str(tree), "--state", str(state), "--now", now.strftime("%Y-%m-%dT%H:%M:%S")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def measure(tree):
    inodes = {}
    for p in [Path(tree)] + [Path(d) / n for d, ds, fs in os.walk(tree) for n in ds + fs]:
        st = os.lstat(p)
        inodes[(st.st_dev, st.st_ino)] = st
    use = {}
    for st in inodes.values():
        for key in (("user", st.st_uid), ("group", st.st_gid)):
            b, i = use.get(key, (0, 0))
            use[key] = (b + st.st_blocks // 2, i + 1)
    return use


def line(kind, name, ident, res, soft, hard, use, start, now, grace):
    used = use.get((kind, ident), (0, 0))[0 if res == "blocks" else 1]
    over = soft > 0 and used > soft
    if hard > 0 and used >= hard:
        st = "hard"
    elif over:
        end = start + grace
        st = "expired" if now >= end else f"grace:{int((end - now).total_seconds()) // 60}"
    else:
        st = "ok"
    return f"{kind} {name} {res} {used} {soft} {hard} {st}"


def write(p, n, uid, gid):
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(b"x" * n)
    os.chown(p, uid, gid)


def test_saved_report():
    use = measure("/srv/export")
    now = datetime(2026, 12, 1, 2, 0, 0)
    g = {"blocks": timedelta(days=3), "inodes": timedelta(hours=12)}
    want = [line("user", "alice", 1001, "blocks", 100, 400, use, now, now, g["blocks"]),
            line("user", "alice", 1001, "inodes", 5, 20, use, now, now, g["inodes"]),
            line("user", "bob", 1002, "blocks", 0, 50, use, now, now, g["blocks"]),
            line("group", "proj", 2000, "inodes", 3, 0, use, now, now, g["inodes"]),
            line("user", "4242", 4242, "blocks", 10, 0, use, now, now, g["blocks"]),
            line("user", "4242", 4242, "inodes", 1, 0, use, now, now, g["inodes"]),
            line("group", "31337", 31337, "blocks", 1, 1, use, now, now, g["blocks"])]
    assert Path("/app/report.txt").read_text().splitlines() == want
    assert want[0].endswith("grace:4320") and want[2].endswith("hard") and want[3].endswith("grace:720")


def test_grace_timeline(tmp_path):
    tree, conf, state = tmp_path / "t", tmp_path / "q.conf", tmp_path / "st" / "state"
    tree.mkdir()
    for i in range(4):
        write(tree / f"f{i}", 10, 3001, 3001)
    conf.write_text("# test\ngrace inodes=2d6h\n\nuser 3001 inodes=3:0\n")
    out = run(conf, tree, state, T0)
    assert out == ["user 3001 inodes 4 3 0 grace:3240"]
    out = run(conf, tree, state, T0 + timedelta(days=1, hours=3, minutes=7, seconds=30))
    assert out == ["user 3001 inodes 4 3 0 grace:1612"]
    out = run(conf, tree, state, T0 + timedelta(days=2, hours=6))
    assert out == ["user 3001 inodes 4 3 0 expired"]
    (tree / "f0").unlink()
    out = run(conf, tree, state, T0 + timedelta(days=3))
    assert out == ["user 3001 inodes 3 3 0 ok"]
    write(tree / "again", 1, 3001, 3001)
    out = run(conf, tree, state, T0 + timedelta(days=4))
    assert out == ["user 3001 inodes 4 3 0 grace:3240"]
    out = run(conf, tree, state, T0 + timedelta(days=4, minutes=1))
    assert out == ["user 3001 inodes 4 3 0 grace:3239"]


def test_hard_links_symlinks_and_root(tmp_path):
    tree, conf, state = tmp_path / "t", tmp_path / "q", tmp_path / "s"
    tree.mkdir()
    os.chown(tree, 3002, 3100)
    write(tree / "a" / "big", 200000, 3002, 3100)
    os.link(tree / "a" / "big", tree / "big-link")
    os.symlink("a/big", tree / "sym")
    os.lchown(tree / "sym", 3003, 3100)
    (tree / "a").chmod(0o755)
    os.chown(tree / "a", 3002, 3101)
    use = measure(tree)
    kib = use[("user", 3002)][0]
    conf.write_text(f"user 3002 blocks={kib - 1}:{kib} inodes=0:3\nuser 3003 inodes=0:2\ngroup 3100 inodes=2:0 "
                    f"blocks={use[('group', 3100)][0]}:0\ngroup 3101 inodes=1:0\n")
    out = run(conf, tree, state, T0)
    assert out == [f"user 3002 blocks {kib} {kib - 1} {kib} hard", "user 3002 inodes 3 0 3 hard",
                   "user 3003 inodes 1 0 2 ok", f"group 3100 blocks {use[('group', 3100)][0]} {use[('group', 3100)][0]} 0 ok",
                   "group 3100 inodes 3 2 0 grace:10080", "group 3101 inodes 1 1 0 ok"]


def test_names_and_order(tmp_path):
    tree, conf, state = tmp_path / "t", tmp_path / "q", tmp_path / "s"
    tree.mkdir()
    write(tree / "x", 10, 0, 0)
    write(tree / "y", 10, 33, 33)
    conf.write_text("group root inodes=1:0 blocks=0:0\nuser www-data inodes=0:1\nuser root blocks=1:0 inodes=5:9\n"
                    "grace blocks=1h30m\nuser nobody blocks=0:0\n")
    out = run(conf, tree, state, T0)
    use = measure(tree)
    assert out == [f"group root inodes {use[('group', 0)][1]} 1 0 grace:10080", "user www-data inodes 1 0 1 hard",
                   f"user root blocks {use[('user', 0)][0]} 1 0 grace:90", f"user root inodes {use[('user', 0)][1]} 5 9 ok"]


@pytest.mark.parametrize("round_", range(3))
def test_random_sequences(tmp_path, round_):
    tree, conf, state = tmp_path / "t", tmp_path / "q", tmp_path / "s"
    tree.mkdir()
    uids, gids = [4001, 4002, 4003], [5001, 5002]
    files = []
    for i in range(RNG.randint(5, 15)):
        p = tree / RNG.choice(["", "d1/", "d2/", "d1/e/"]) / f"f{i}"
        write(p, RNG.choice([0, 1, 5000, 70000]), RNG.choice(uids), RNG.choice(gids))
        files.append(p)
    gb, gi = timedelta(hours=RNG.randint(1, 72)), timedelta(minutes=RNG.randint(30, 3000))
    rules = []
    for kind, ids in (("user", uids), ("group", gids)):
        for ident in ids:
            lim = {}
            for res in ("blocks", "inodes"):
                if RNG.random() < 0.8:
                    lim[res] = (RNG.choice([0, 1, 3, 8, 60, 200]), RNG.choice([0, 0, 5, 100, 500]))
            rules.append((kind, ident, lim))
    def fmt_dur(d):
        m = int(d.total_seconds() // 60)
        return f"{m // 1440}d{m % 1440 // 60}h{m % 60}m"
    conf.write_text(f"grace blocks={fmt_dur(gb)} inodes={fmt_dur(gi)}\n" + "".join(
        f"{k} {i} " + " ".join(f"{r}={s}:{h}" for r, (s, h) in lim.items()) + "\n" for k, i, lim in rules))
    starts, now = {}, T0
    for step in range(4):
        use = measure(tree)
        want = []
        for kind, ident, lim in rules:
            for res in ("blocks", "inodes"):
                s, h = lim.get(res, (0, 0))
                if not s and not h:
                    continue
                used = use.get((kind, ident), (0, 0))[0 if res == "blocks" else 1]
                key = (kind, ident, res)
                if s > 0 and used > s:
                    starts.setdefault(key, now)
                else:
                    starts.pop(key, None)
                want.append(line(kind, str(ident), ident, res, s, h, use, starts.get(key), now,
                                 gb if res == "blocks" else gi))
        assert run(conf, tree, state, now) == want, (step, conf.read_text())
        if files and RNG.random() < 0.6:
            f = files.pop(RNG.randrange(len(files)))
            f.unlink()
        else:
            write(tree / f"n{step}", RNG.choice([1, 9000]), RNG.choice(uids), RNG.choice(gids))
        now += timedelta(minutes=RNG.randint(10, 3000), seconds=RNG.randint(0, 59))
