import os
import random
import stat
import subprocess
import sys
from pathlib import Path

import pytest

SHARE = Path("/srv/share")


def run_tool(listing):
    r = subprocess.run([sys.executable, "/app/restore_perms.py", str(listing)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def meta(p):
    st = os.lstat(p)
    if stat.S_ISLNK(st.st_mode):
        return ("link", st.st_uid, st.st_gid)
    kind = "dir" if stat.S_ISDIR(st.st_mode) else "file"
    return (kind, stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid, int(st.st_mtime))


def snapshot(root):
    out = {str(root): meta(root)}
    for dp, dns, fns in os.walk(root):
        for n in dns + fns:
            p = os.path.join(dp, n)
            out[p] = meta(p)
    return out


def make_tree(root, rng):
    names = ["alpha", "b e t a", " lead", "trail ", "x:y", "Ünïcode", "two  spaces", "d.tar.gz", "-dash"]
    root.mkdir()
    dirs = [root]
    paths = []
    for i in range(40):
        parent = rng.choice(dirs)
        name = f"{rng.choice(names)}{i}"
        p = parent / name
        kind = rng.random()
        if kind < 0.3 and len(dirs) < 12:
            p.mkdir()
            dirs.append(p)
            os.chmod(p, rng.choice([0o755, 0o750, 0o1777, 0o2775, 0o3770, 0o700, 0o1700, 0o711]))
        elif kind < 0.45 and paths:
            os.symlink(os.path.relpath(rng.choice(paths), parent), p)
        else:
            p.write_bytes(os.urandom(rng.randrange(0, 300)))
            os.chmod(p, rng.choice([0o644, 0o600, 0o4755, 0o2755, 0o6750, 0o4600, 0o2644, 0o1644, 0o755, 0o444]))
            paths.append(p)
        os.lchown(p, rng.choice([0, 33, 1000, 1001, 65534]), rng.choice([0, 50, 100, 1000, 4242]))
    os.chmod(root, 0o2751)
    os.chown(root, 1000, 1000)
    # ownership changes clear set-id bits on files: set the modes again afterwards
    for p in paths:
        os.chmod(p, stat.S_IMODE(os.lstat(p).st_mode))
    t = 1500000000 + rng.randrange(10 ** 6)
    for p in sorted(snapshot(root), key=len, reverse=True):
        t += rng.randrange(1, 10 ** 5)
        os.utime(p, (t, t), follow_symlinks=False)
    return paths


def damage(root):
    for p in snapshot(root):
        os.lchown(p, 0, 0)
        if not os.path.islink(p):
            os.chmod(p, 0o777 if os.path.isdir(p) else 0o666)
            os.utime(p, (1234567890, 1234567890))


@pytest.fixture(scope="module")
def hidden(tmp_path_factory):
    results = []
    for seed in (3, 17, 29):
        rng = random.Random(seed)
        root = tmp_path_factory.mktemp(f"t{seed}") / "tree with space"
        paths = make_tree(root, rng)
        listing = root.parent / "before.ls"
        listing.write_bytes(subprocess.run(["ls", "-lanR", "--time-style=+%s", str(root)], check=True,
                                           capture_output=True).stdout)
        want = snapshot(root)
        gone = rng.choice(paths)
        gone.unlink()
        extra = root / "new dir"
        extra.mkdir()
        (extra / "new file").write_text("n")
        damage(root)
        out = run_tool(listing)
        results.append((root, want, gone, extra, out))
    return results


def test_hidden_trees_metadata_restored(hidden):
    for root, want, gone, extra, _ in hidden:
        got = snapshot(root)
        for p, m in want.items():
            if p == str(gone):
                continue
            assert got[p] == m, p


def test_hidden_setid_bits_survive(hidden):
    n = 0
    for root, want, gone, extra, _ in hidden:
        for p, m in want.items():
            if m[0] == "file" and m[1] & 0o6000 and p != str(gone):
                assert stat.S_IMODE(os.lstat(p).st_mode) == m[1], p
                n += 1
    assert n >= 3


def test_hidden_report_lines(hidden):
    for root, want, gone, extra, out in hidden:
        exp = sorted([(str(gone), "missing"), (str(extra), "unlisted"), (str(extra / "new file"), "unlisted")],
                     key=lambda t: os.fsencode(t[0]))
        assert out == [f"{w} {p}" for p, w in exp]


def share_expected_mtimes():
    paths = [str(p) for p in snapshot(SHARE) if p != str(SHARE / "docs/new notes.txt")]
    paths.append(str(SHARE / "keys/id_ed25519.pub"))
    return {p: 1600000000 + 86411 * (i + 1) for i, p in enumerate(sorted(paths, key=os.fsencode))}


def test_share_restored():
    want = {
        "": ("dir", 0o751, 1001, 1001),
        "bin": ("dir", 0o755, 0, 0),
        "bin/backup": ("file", 0o4755, 0, 0),
        "bin/setgid-helper": ("file", 0o2711, 0, 50),
        "docs/old reports": ("dir", 0o2750, 1001, 1001),
        "docs/old reports/ leading space.txt": ("file", 0o6604, 1002, 100),
        "docs/old reports/q1 2023.csv": ("file", 0o640, 1001, 1001),
        "drop box": ("dir", 0o1777, 1002, 100),
        "drop box/README": ("file", 0o600, 1001, 1001),
        "keys": ("dir", 0o700, 1001, 1001),
        "keys/id_ed25519": ("file", 0o600, 1001, 1001),
        "web/static": ("dir", 0o1750, 33, 33),
        "web/index.html": ("file", 0o644, 33, 33),
    }
    mt = share_expected_mtimes()
    for rel, m in want.items():
        p = str(SHARE / rel) if rel else str(SHARE)
        assert meta(p) == m + (mt[p],), rel
    assert meta(SHARE / "web/plan-link") == ("link", 1002, 1003)
    assert meta(SHARE / "docs/archive") == ("link", 1001, 1001)
    assert os.readlink(SHARE / "docs/archive") == "old reports"


def test_share_all_mtimes_and_report():
    mt = share_expected_mtimes()
    for p, m in snapshot(SHARE).items():
        if m[0] != "link" and not p.endswith("new notes.txt"):
            assert m[4] == mt[p], p
    assert run_tool("/root/share.ls") == ["unlisted /srv/share/docs/new notes.txt",
                                          "missing /srv/share/keys/id_ed25519.pub"]
