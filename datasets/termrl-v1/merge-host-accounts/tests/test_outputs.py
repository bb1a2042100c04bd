"""/app/merge-accounts on account files and trees generated here; the expected merge follows the
instruction's rules, computed independently here."""
import os
import random
import stat
import subprocess
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/merge-accounts"


def parse(text):
    return [line.split(":") for line in text.splitlines() if line.strip()]


def merged(local, old, members):
    """Generic merge on rows (col 2 = id). Returns (rows, map)."""
    local = [list(r) for r in local]
    names = {r[0]: i for i, r in enumerate(local)}
    taken = {int(r[2]) for r in local}
    mp, new = {}, []
    for r in old:
        if r[0] in names:
            lr = local[names[r[0]]]
            mp[int(r[2])] = int(lr[2])
            if members:
                cur = lr[3].split(",") if lr[3] else []
                cur += [m for m in (r[3].split(",") if r[3] else []) if m not in cur]
                lr[3] = ",".join(cur)
        else:
            new.append(list(r))
    for r in new:
        if int(r[2]) not in taken:
            mp[int(r[2])] = int(r[2])
    taken |= {mp[int(r[2])] for r in new if int(r[2]) in mp}
    for r in new:
        oid = int(r[2])
        if oid not in mp:
            cand = 100 if oid < 1000 else 1000
            while cand in taken:
                cand += 1
            mp[oid] = cand
            taken.add(cand)
        r[2] = str(mp[oid])
    return local + new, mp


def expected(lp, lg, op, og):
    groups, gm = merged(lg, og, True)
    users, um = merged(lp, op, False)
    n_local = len(lp)
    for r in users[n_local:]:
        r[3] = str(gm.get(int(r[3]), int(r[3])))
    return users, groups, um, gm


def dump(rows):
    return "".join(":".join(r) + "\n" for r in rows)


POOL = ["ann", "ben", "cho", "dia", "eli", "fay", "gus", "hal", "ivy", "jon", "kim", "lee", "max", "nia", "oz",
        "pam", "qiu", "raf", "sam", "tia"]


def random_db():
    names = RNG.sample(POOL, 16)
    local_names, old_names = names[:9], names[5:]          # 4 shared names
    sysnames = ["www-data", "postfix", "redis", "mysql", "chrony"]
    lp, lg, op, og = [["root", "x", "0", "0", "root", "/root", "/bin/bash"]], [["root", "x", "0", ""]], [], []
    lids = RNG.sample(range(1000, 1014), len(local_names))
    oids = RNG.sample(range(1000, 1016), len(old_names))
    for n, i in zip(local_names, lids):
        lg.append([n, "x", str(i), ""])
        lp.append([n, "x", str(i), str(i), f"{n.title()} Local", f"/home/{n}", "/bin/bash"])
    for n, i in zip(old_names, oids):
        og.append([n, "x", str(i), ""])
        op.append([n, "x", str(i), str(i), f"{n.title()},,,", f"/home/{n}", RNG.choice(["/bin/zsh", "/bin/sh"])])
    for n in RNG.sample(sysnames, 3):
        i = RNG.randint(100, 106)
        if all(int(r[2]) != i for r in lg):
            lg.append([n, "x", str(i), ""])
            lp.append([n, "x", str(i), str(i), n, "/nonexistent", "/usr/sbin/nologin"])
    for n in RNG.sample(sysnames, 3):
        i = RNG.randint(100, 106)
        if all(int(r[2]) != i for r in og):
            og.append([n, "x", str(i), ""])
            op.append([n, "x", str(i), str(i), n, f"/var/lib/{n}", "/usr/sbin/nologin"])
    # shared groups with members, and an orphan primary gid
    for rows, who in ((lg, local_names), (og, old_names)):
        rows.append(["staff", "x", str(RNG.choice([2000, 50])), ",".join(RNG.sample(who, 3))])
        rows.append(["ops" + RNG.choice(["", "x"]), "x", str(RNG.randint(2001, 2003)), ",".join(RNG.sample(who, 2))])
    op.append(["legacy", "*", "1020", "31337", "", "/", "/bin/false"])  # primary group unknown to the old host
    RNG.shuffle(op)
    RNG.shuffle(og)
    return lp, lg, op, og


def setup_dirs(tmp_path, lp, lg, op, og):
    loc, old = tmp_path / "local", tmp_path / "old"
    loc.mkdir()
    old.mkdir()
    (loc / "passwd").write_text(dump(lp))
    (loc / "group").write_text(dump(lg))
    (old / "passwd").write_text(dump(op))
    (old / "group").write_text(dump(og))
    return loc, old


def run(*args):
    r = subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r


@pytest.mark.parametrize("round_", range(3))
def test_hidden_account_merge(tmp_path, round_):
    lp, lg, op, og = random_db()
    loc, old = setup_dirs(tmp_path, lp, lg, op, og)
    tree = tmp_path / "tree"
    tree.mkdir()
    run(loc, old, tree)
    users, groups, um, gm = expected(lp, lg, op, og)
    assert (loc / "group").read_text() == dump(groups)
    assert (loc / "passwd").read_text() == dump(users)
    for rows in (users, groups):
        ids = [r[2] for r in rows]
        assert len(ids) == len(set(ids))


def build_tree(root, uids, gids):
    entries = []
    root.mkdir()
    os.chown(root, RNG.choice(uids), RNG.choice(gids))
    entries.append(root)
    dirs = [root]
    for i in range(40):
        parent = RNG.choice(dirs)
        kind = RNG.random()
        p = parent / f"e{i}"
        if kind < 0.25:
            p.mkdir()
            os.chmod(p, RNG.choice([0o755, 0o2775, 0o1777, 0o3770, 0o700]))
            dirs.append(p)
        elif kind < 0.85:
            p.write_text(f"content {i}\n")
            os.chmod(p, RNG.choice([0o644, 0o600, 0o4755, 0o2755, 0o6750, 0o4711, 0o2644]))
        else:
            os.symlink(RNG.choice(["/etc/hostname", "../x", str(root / "e0")]), p)
        mode = stat.S_IMODE(os.lstat(p).st_mode)
        os.lchown(p, RNG.choice(uids), RNG.choice(gids))
        if not p.is_symlink():
            os.chmod(p, mode)  # chown clears set-id bits; give the entry its intended mode back
        entries.append(p)
    return entries


def test_hidden_tree_reowned(tmp_path):
    lp, lg, op, og = random_db()
    loc, old = setup_dirs(tmp_path, lp, lg, op, og)
    _, _, um, gm = expected(lp, lg, op, og)
    uids = [int(r[2]) for r in op] + [4242, 0]
    gids = [int(r[2]) for r in og] + [31337, 0]
    tree = tmp_path / "tree"
    entries = build_tree(tree, uids, gids)
    modes = {}
    for p in entries:
        st = os.lstat(p)
        modes[p] = (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode))
    run(loc, old, tree)
    assert any(um[k] != k for k in um) and any(gm[k] != k for k in gm)
    for p, (u, g, m) in modes.items():
        st = os.lstat(p)
        assert (st.st_uid, st.st_gid) == (um.get(u, u), gm.get(g, g)), p
        if not p.is_symlink():
            assert stat.S_IMODE(st.st_mode) == m, (p, oct(m), oct(st.st_mode))


def test_chained_ids_and_setid_bits(tmp_path):
    lp = [["root", "x", "0", "0", "root", "/root", "/bin/bash"], ["a", "x", "1000", "1000", "", "/home/a", "/bin/sh"],
          ["b", "x", "1001", "1001", "", "/home/b", "/bin/sh"]]
    lg = [["root", "x", "0", ""], ["a", "x", "1000", ""], ["b", "x", "1001", ""]]
    # old b 1000 -> local 1001; old d keeps 1002; old c 1001 is taken locally -> 1003 (chains 1000->1001->1003)
    op = [["c", "x", "1001", "1001", "", "/home/c", "/bin/sh"], ["b", "x", "1000", "1000", "", "/home/b", "/bin/sh"],
          ["d", "x", "1002", "1002", "", "/home/d", "/bin/sh"]]
    og = [["c", "x", "1001", ""], ["b", "x", "1000", ""], ["d", "x", "1002", ""]]
    loc, old = setup_dirs(tmp_path, lp, lg, op, og)
    t = tmp_path / "t"
    t.mkdir()
    files = {}
    for name, (u, g, m) in {"f1000": (1000, 1000, 0o4755), "f1001": (1001, 1001, 0o6755), "f1002": (1002, 1002, 0o2750),
                            "f1003": (1003, 1002, 0o755)}.items():
        p = t / name
        p.write_text(name)
        os.chown(p, u, g)
        os.chmod(p, m)
        files[name] = p
    os.symlink("/etc/hostname", t / "link")
    os.lchown(t / "link", 1001, 1000)
    run(loc, old, t)
    assert (loc / "passwd").read_text().splitlines()[3:] == ["c:x:1003:1003::/home/c:/bin/sh",
                                                              "d:x:1002:1002::/home/d:/bin/sh"]
    want = {"f1000": (1001, 1001, 0o4755), "f1001": (1003, 1003, 0o6755), "f1002": (1002, 1002, 0o2750),
            "f1003": (1003, 1002, 0o755)}
    for name, (u, g, m) in want.items():
        st = os.lstat(files[name])
        assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (u, g, m), name
    st = os.lstat(t / "link")
    assert (st.st_uid, st.st_gid) == (1003, 1001)
    assert os.stat("/etc/hostname").st_uid == 0


def test_this_host_accounts():
    pw = {r[0]: r for r in parse(Path("/etc/passwd").read_text())}
    gr = {r[0]: r for r in parse(Path("/etc/group").read_text())}
    assert pw["alice"][2:] == ["1000", "1000", "Alice Ng", "/home/alice", "/bin/bash"]
    assert pw["carol"][2:] == ["1004", "1004", "Carol Diaz", "/home/carol", "/bin/zsh"]
    assert pw["erin"][2:4] == ["1005", "1005"] and pw["dave"][2:4] == ["1003", "1003"]
    assert pw["postgres"][2:4] == ["100", "108"] and pw["svc-report"][2:4] == ["1500", "1006"]
    assert gr["devs"][2:] == ["1500", "alice,bob,carol,erin"]
    assert gr["users"][2:] == ["100", "carol,dave"]
    assert gr["ssl-cert"][2:] == ["109", "postgres"] and gr["svc-report"][2] == "1006"
    assert gr["messagebus"][2] == "105" and pw["messagebus"][2] == "105"


def test_this_host_tree():
    T = Path("/srv/oldhome")
    want = {"carol/notes.txt": (1004, 1004), "alice/src/main.c": (1000, 1000), "erin/todo": (1005, 1005),
            "dave/shared": (1003, 1500), "dave/shared/plan.md": (4242, 1003), "dave/carol-notes": (1003, 1003),
            "erin/host-link": (1005, 100), "report": (1500, 1006), ".": (0, 100), "erin/suid-tool": (1005, 1005)}
    for rel, ids in want.items():
        st = os.lstat(T / rel)
        assert (st.st_uid, st.st_gid) == ids, rel
    assert stat.S_IMODE(os.lstat(T / "erin/suid-tool").st_mode) == 0o4755
    assert stat.S_IMODE(os.lstat(T / "dave/shared").st_mode) == 0o2775
    assert stat.S_IMODE(os.lstat(T / "report").st_mode) == 0o1777
    assert os.stat("/etc/hostname").st_uid == 0
