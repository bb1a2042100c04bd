import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

APP = Path("/srv/app")


def run(root, old):
    r = subprocess.run([sys.executable, "/app/relink.py", str(root), str(old)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def owner(p):
    st = os.lstat(p)
    return st.st_uid, st.st_gid


def test_shipped_links_rewritten():
    want = {
        "bin/app": "app-1.4",
        "lib/libcore.so.2": "libcore.so.2.1",
        "lib/libcore.so": "libcore.so.2",
        "share/etc-link": "../etc",
        "README": "share/doc/README",
        "share/home": "..",
        "lib/plugins/bz2.so": "missing.so",
        "var/run/loop": "loop",
    }
    for rel, target in want.items():
        assert os.readlink(APP / rel) == target, rel
    assert (APP / "README").read_text() == "doc\n"
    assert (APP / "lib/libcore.so").read_text() == "so\n"


def test_shipped_others_untouched_and_owners():
    keep = {
        "lib/libother.so": "/opt/legacy/app2/lib/libother.so",
        "lib/libother-compat.so": "/opt/legacy/app/../app2/lib/libother.so",
        "etc/hostname": "/etc/hostname",
        "etc/local.conf": "conf.d/10-local.conf",
        "var/run/pid": "../nowhere",
    }
    for rel, target in keep.items():
        assert os.readlink(APP / rel) == target, rel
    assert (APP / "bin/app").read_text() == "#!/bin/sh\necho app\n"
    assert owner(APP / "bin/app") == (0, 0)
    assert owner(APP / "lib/libcore.so") == (2001, 2002)
    assert owner(APP / "share/home") == (1000, 1000)
    assert sorted(os.listdir(APP / "lib")) == ["libcore.so", "libcore.so.2", "libcore.so.2.1", "libother-compat.so",
                                               "libother.so", "plugins"]


def test_shipped_second_run_reports_dangling_only():
    assert run(APP, "/opt/legacy/app/") == [
        "dangling /srv/app/lib/libother-compat.so",
        "dangling /srv/app/lib/plugins/bz2.so",
        "dangling /srv/app/var/run/loop",
        "dangling /srv/app/var/run/pid",
    ]


def build(base, rng):
    root, old = base / "new root", "/gone/old app"
    files, dirs = [], [root]
    root.mkdir()
    for i in range(25):
        d = rng.choice(dirs)
        if rng.random() < 0.3:
            p = d / f"dir {i}"
            p.mkdir()
            dirs.append(p)
        else:
            p = d / f"f{i}.txt"
            p.write_text(f"file {i}\n")
            files.append(p)
    expect, out = {}, []
    for i in range(30):
        d = rng.choice(dirs)
        link = d / f"ln{i}"
        kind = rng.randrange(8)
        tgt_path = rng.choice(files + dirs[1:])
        rel = str(tgt_path.relative_to(root))
        if kind == 0:
            target = f"{old}/{rel}"
        elif kind == 1:
            target = f"{old}//./{rel}"
        elif kind == 2:
            target = f"{old}/{rel.split('/')[0]}/../{rel}"
        elif kind == 3:
            target = f"{old}/no such {i}"
        elif kind == 4:
            target = old + rng.choice(["", "/", "/."])
        elif kind == 5:
            target = rng.choice([f"{old}2/{rel}", f"{old}/../elsewhere/{rel}", f"{old}.bak/{rel}", "/etc/hostname"])
        elif kind == 6:
            target = os.path.relpath(tgt_path, d)
        else:
            target = f"../../{rel}" if rng.random() < 0.5 else f"{old}/{rel}/../nope"
        os.symlink(target, link)
        uid, gid = rng.choice([0, 7, 1000, 4242]), rng.choice([0, 100, 1000])
        os.lchown(link, uid, gid)
        norm = os.path.normpath(target)
        if os.path.isabs(target) and (norm == old or norm.startswith(old + "/")):
            new = os.path.relpath(str(root) + norm[len(old):], d)
            expect[link] = (new, uid, gid)
            out.append((link, 0, f"rewritten {link} -> {new}"))
        else:
            expect[link] = (target, uid, gid)
    return root, old, expect, out


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_hidden_tree(tmp_path, seed):
    root, old, expect, out = build(tmp_path, random.Random(seed))
    got = run(root, old + ("/" if seed == 6 else ""))
    for link, (target, uid, gid) in expect.items():
        assert os.readlink(link) == target, str(link)
        assert owner(link) == (uid, gid), f"owner of {link}"
    for link in expect:
        if not os.path.exists(link):
            out.append((link, 1, f"dangling {link}"))
    want = [line for _, _, line in sorted(out, key=lambda t: (os.fsencode(str(t[0])), t[1]))]
    assert got == want
    assert sorted(p.name for p in root.rglob("*") if ".relink" in p.name or p.name.endswith("~")) == []
