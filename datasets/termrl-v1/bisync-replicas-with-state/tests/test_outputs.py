"""/app/bisync on replica trees generated here: random files, names with spaces and non-ASCII, exec bits,
symlinks (to files, to directories, dangling); random edits on both sides; the outcome and the report are
checked against the rules of the instruction, written out independently here."""
import os
import random
import shutil
import stat
import string
import subprocess
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/bisync"
NAMES = ["notes", "draft 2", "résumé", "data", "build", "Makefile", "x", "über plan", "a b c", "z-last"]


def word():
    return RNG.choice(NAMES) + "-" + "".join(RNG.choice(string.ascii_lowercase) for _ in range(4))


def run(a, b, state):
    return subprocess.run([TOOL, str(a), str(b), str(state)], capture_output=True, text=True, timeout=120)


def scan(root: Path):
    items = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            if p.is_symlink():
                items[rel] = ("link", os.readlink(p))
            elif p.is_file():
                items[rel] = ("file", p.read_bytes(), bool(p.stat().st_mode & stat.S_IXUSR))
    return items


def dirs(root: Path):
    return {str(Path(d).relative_to(root)) for d, _, _ in os.walk(root) if Path(d) != root}


def put(root: Path, rel, version):
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    if p.is_symlink() or p.exists():
        p.unlink()
    if version[0] == "link":
        os.symlink(version[1], p)
    else:
        p.write_bytes(version[1])
        os.chmod(p, 0o755 if version[2] else 0o644)
        t = RNG.randint(1_500_000_000, 1_700_000_000)
        os.utime(p, (t, t))


def delete(root: Path, rel):
    (root / rel).unlink()


def rand_file():
    return ("file", os.urandom(RNG.randint(0, 3000)), RNG.random() < 0.3)


def rand_tree(n):
    tree = {}
    for _ in range(n):
        depth = RNG.randint(0, 2)
        rel = "/".join([word() for _ in range(depth)] + [word() + RNG.choice([".txt", ".sh", ""])])
        if any(rel.startswith(k + "/") or k.startswith(rel + "/") for k in tree):
            continue
        tree[rel] = rand_file() if RNG.random() < 0.85 else ("link", RNG.choice(["../x", "target.txt", "/etc/hostname"]))
    return tree


def model(state, a, b):
    """The rules: returns (items of both replicas afterwards, report lines)."""
    out, lines = dict(a), {}
    for rel in set(a) | set(b) | set(state):
        old, va, vb = state.get(rel), a.get(rel), b.get(rel)
        ca, cb = va != old, vb != old
        if (not ca and not cb) or (ca and cb and va == vb):
            continue
        if (ca and not cb) or (ca and cb and vb is None):
            win, line = va, (f"A>B {rel}" if va is not None else f"del-B {rel}")
        elif (cb and not ca) or (ca and cb and va is None):
            win, line = vb, (f"B>A {rel}" if vb is not None else f"del-A {rel}")
        else:
            win, line = va, f"conflict {rel}"
            out[rel + ".conflict"] = vb
        lines[rel] = line
        if win is None:
            out.pop(rel, None)
        else:
            out[rel] = win
    return out, [lines[k] for k in sorted(lines, key=lambda s: s.encode())]


def make(tmp, tree_a, tree_b):
    a, b = tmp / "laptop", tmp / "server"
    a.mkdir()
    b.mkdir()
    for rel, v in tree_a.items():
        put(a, rel, v)
    for rel, v in tree_b.items():
        put(b, rel, v)
    return a, b, tmp / "sync.state"


def sync_and_check(a, b, state_file, state):
    before_a, before_b = scan(a), scan(b)
    want, want_lines = model(state, before_a, before_b)
    r = run(a, b, state_file)
    assert r.returncode == 0, r.stderr
    got_a, got_b = scan(a), scan(b)
    assert set(got_a) == set(want), (sorted(set(got_a) ^ set(want)))
    assert got_a == want, [k for k in want if got_a.get(k) != want[k]]
    assert got_b == want, [k for k in want if got_b.get(k) != want[k]]
    assert r.stdout.splitlines() == want_lines
    return want


def edit_side(root: Path, items, avoid):
    """Random one-sided edits on paths not in `avoid`; returns the paths touched."""
    touched = set()
    for rel in list(items):
        if rel in avoid or rel.endswith(".conflict") or RNG.random() < 0.5:
            continue
        kind = RNG.choice(["edit", "delete", "chmod", "retype"])
        v = items[rel]
        if kind == "delete":
            delete(root, rel)
        elif kind == "chmod" and v[0] == "file":
            os.chmod(root / rel, 0o644 if v[2] else 0o755)
        elif kind == "retype":
            put(root, rel, ("link", "elsewhere/" + word()) if v[0] == "file" else rand_file())
        else:
            put(root, rel, rand_file() if v[0] == "file" else ("link", "t-" + word()))
        touched.add(rel)
    for _ in range(RNG.randint(1, 4)):
        rel = f"new-{root.name}/{word()}.txt"
        put(root, rel, rand_file())
        touched.add(rel)
    return touched


def test_first_sync_takes_the_union(tmp_path):
    ta, tb = rand_tree(14), rand_tree(10)
    common = "shared/" + word() + ".txt"
    ta[common] = tb[common] = ("file", b"same on both\n", False)
    clash = "clash " + word() + ".cfg"
    ta[clash], tb[clash] = ("file", b"laptop\n", False), ("file", b"server\n", True)
    a, b, st = make(tmp_path, ta, {k: v for k, v in tb.items() if k not in ta or k in (common, clash)})
    want = sync_and_check(a, b, st, {})
    assert want[clash] == ta[clash] and want[clash + ".conflict"] == tb[clash]
    r = run(a, b, st)
    assert r.returncode == 0 and r.stdout == "", r.stdout


def test_one_sided_edits_propagate_and_a_rerun_is_quiet(tmp_path):
    a, b, st = make(tmp_path, rand_tree(25), {})
    state = sync_and_check(a, b, st, {})
    touched_a = edit_side(a, state, set())
    edit_side(b, state, touched_a)
    state = sync_and_check(a, b, st, state)
    snapshot = {p: (p.lstat().st_mtime, p.lstat().st_mode) for r in (a, b) for p in r.rglob("*")}
    r = run(a, b, st)
    assert r.returncode == 0 and r.stdout == ""
    assert {p: (p.lstat().st_mtime, p.lstat().st_mode) for r in (a, b) for p in r.rglob("*")} == snapshot


def test_both_sides_changed(tmp_path):
    files = {f"dir {i}/{word()}.txt": ("file", f"v0 {i}\n".encode(), False) for i in range(7)}
    a, b, st = make(tmp_path, files, {})
    state = sync_and_check(a, b, st, {})
    k = sorted(files)
    put(a, k[0], ("file", b"laptop edit\n", False))
    put(b, k[0], ("file", b"server edit\n", True))           # conflict
    delete(a, k[1])
    put(b, k[1], ("file", b"kept: edited on server\n", False))  # edit beats delete (B>A)
    put(a, k[2], ("file", b"kept: edited on laptop\n", True))
    delete(b, k[2])                                            # edit beats delete (A>B)
    delete(a, k[3])
    delete(b, k[3])                                            # both deleted: silent
    put(a, k[4], ("file", b"same edit\n", False))
    put(b, k[4], ("file", b"same edit\n", False))              # same change: silent
    os.chmod(a / k[5], 0o755)
    put(b, k[5], ("file", b"v0 5\n", True))                    # same version by two routes: silent
    delete(a, k[6])                                            # deleted on one side: del-B
    state = sync_and_check(a, b, st, state)
    assert (a / (k[0] + ".conflict")).read_bytes() == b"server edit\n"
    assert not (a / Path(k[3]).parent).exists() and not (b / Path(k[3]).parent).exists(), \
        "a directory left empty must be removed"


def test_symlinks_are_copied_as_links(tmp_path):
    a, b, st = make(tmp_path, {}, {})
    (a / "real dir").mkdir()
    (a / "real dir" / "inside.txt").write_text("inside\n")
    os.symlink("real dir", a / "dirlink")
    os.symlink("nowhere/at/all", a / "dangling")
    os.symlink("real dir/inside.txt", a / "filelink")
    sync_and_check(a, b, st, {})
    for name, target in (("dirlink", "real dir"), ("dangling", "nowhere/at/all"), ("filelink", "real dir/inside.txt")):
        assert (b / name).is_symlink() and os.readlink(b / name) == target
    assert not any(p.name == "inside.txt" and "dirlink" in str(p) for p in b.rglob("*"))


def test_copies_keep_mtime_and_get_normalised_modes(tmp_path):
    tree = {f"{word()}.bin": ("file", os.urandom(100), i % 2 == 0) for i in range(6)}
    a, b, st = make(tmp_path, tree, {})
    for rel in tree:
        os.chmod(a / rel, 0o700 if tree[rel][2] else 0o600)
    sync_and_check(a, b, st, {})
    for rel, v in tree.items():
        sb = (b / rel).stat()
        assert stat.S_IMODE(sb.st_mode) == (0o755 if v[2] else 0o644), rel
        assert int(sb.st_mtime) == int((a / rel).stat().st_mtime), rel


def test_bad_arguments_touch_nothing(tmp_path):
    a, b, st = make(tmp_path, {"f.txt": ("file", b"x", False)}, {})
    r = run(a, tmp_path / "missing", st)
    assert r.returncode == 2 and r.stderr.strip()
    assert not st.exists() and scan(a) == {"f.txt": ("file", b"x", False)}
    (tmp_path / "plain").write_text("file")
    r = run(tmp_path / "plain", b, st)
    assert r.returncode == 2 and not st.exists() and scan(b) == {}
