"""/app/cstore on trees generated here: exact restores (contents, modes, mtimes, symlinks, empty
directories), content-defined deduplication of shifted edits, chunk files named by their hash,
garbage collection across snapshots and corruption reports."""
import hashlib
import os
import random
import stat
import subprocess
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/cstore"
NAMES = ["report", "données", "a b", "x", "月報", "build.log", "z"]


def cs(*args):
    return subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True, timeout=600)


def ok(*args):
    r = cs(*args)
    assert r.returncode == 0, (args, r.stderr[-1000:])
    return r


def rand_bytes(n):
    return RNG.randbytes(n)


def make_tree(root: Path, big=300_000):
    root.mkdir(parents=True)
    (root / "empty dir" / "nested empty").mkdir(parents=True)
    for i in range(8):
        d = root / RNG.choice(["", "docs", "docs/deep", "bin", "données"])
        d.mkdir(parents=True, exist_ok=True)
        f = d / f"{RNG.choice(NAMES)}-{i}"
        f.write_bytes(rand_bytes(RNG.choice([0, 1, 100, 5000, big])))
        os.chmod(f, RNG.choice([0o644, 0o600, 0o755, 0o640]))
        t = RNG.randint(1_000_000_000, 1_700_000_000)
        os.utime(f, (t, t))
    (root / "docs").mkdir(exist_ok=True)  # the dangling link below needs it even when no file landed there
    os.symlink("docs/deep", root / "link to dir")
    os.symlink("../nowhere", root / "docs" / "dangling")
    os.chmod(root / "empty dir", 0o750)
    return root


def snapshot_of(root: Path):
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            st = p.lstat()
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", stat.S_IMODE(st.st_mode))
            else:
                out[rel] = ("file", hashlib.sha256(p.read_bytes()).hexdigest(), stat.S_IMODE(st.st_mode), int(st.st_mtime))
    return out


def chunk_files(store: Path):
    return {p.name: p for p in (store / "chunks").rglob("*") if p.is_file()}


def store_bytes(store: Path):
    return sum(p.stat().st_size for p in chunk_files(store).values())


def test_roundtrip_is_exact(tmp_path):
    src = make_tree(tmp_path / "src")
    store = tmp_path / "store"
    ok("backup", store, src, "night 1 — ü")
    ok("restore", store, "night 1 — ü", tmp_path / "out")
    assert snapshot_of(tmp_path / "out") == snapshot_of(src)
    r = cs("restore", store, "night 1 — ü", tmp_path / "out")
    assert r.returncode == 1 and r.stderr.strip(), "restoring onto an existing DEST must fail"
    assert cs("restore", store, "no such", tmp_path / "o2").returncode == 1
    assert cs("backup", store, src, "night 1 — ü").returncode == 1


def test_chunks_are_named_by_hash_and_sized(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "big.bin").write_bytes(rand_bytes(1_200_000))
    store = tmp_path / "store"
    ok("backup", store, src, "one")
    files = chunk_files(store)
    assert files
    for name, p in files.items():
        data = p.read_bytes()
        assert hashlib.sha256(data).hexdigest() == name, f"{p} is not named by its SHA-256"
        assert len(data) <= 65536
    avg = store_bytes(store) / len(files)
    assert 2048 <= avg <= 32768, f"average chunk {avg:.0f} bytes"
    assert store_bytes(store) <= 1_200_000 + 4096


def test_shifted_edits_store_few_new_bytes(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    data = rand_bytes(1_000_000)
    (src / "db.dump").write_bytes(data)
    (src / "copy of db.dump").write_bytes(data)
    store = tmp_path / "store"
    ok("backup", store, src, "mon")
    first = store_bytes(store)
    assert first <= 1_000_000 + 70_000, "identical files must be stored once"
    ok("backup", store, src, "tue")
    assert store_bytes(store) == first, "an unchanged tree must add no chunk"
    at = RNG.randint(200_000, 800_000)
    edited = data[:at] + rand_bytes(RNG.randint(1, 300)) + data[at + RNG.randint(0, 300):]
    (src / "db.dump").write_bytes(edited)
    ok("backup", store, src, "wed")
    grown = store_bytes(store) - first
    assert grown <= 200_000, f"a small edit in the middle added {grown} bytes of chunks"
    ok("restore", store, "wed", tmp_path / "w")
    assert (tmp_path / "w" / "db.dump").read_bytes() == edited
    ok("restore", store, "mon", tmp_path / "m")
    assert (tmp_path / "m" / "db.dump").read_bytes() == data


def test_delete_and_gc_keep_what_others_use(tmp_path):
    store = tmp_path / "store"
    trees = {}
    for name in ("a", "b", "c"):
        trees[name] = make_tree(tmp_path / f"src-{name}", big=150_000)
        ok("backup", store, trees[name], name)
    before = set(chunk_files(store))
    r = ok("gc", store)
    assert r.stdout.strip() == "removed 0 chunks" and set(chunk_files(store)) == before
    ok("delete", store, "b")
    assert cs("restore", store, "b", tmp_path / "rb").returncode == 1
    r = ok("gc", store)
    after = set(chunk_files(store))
    assert r.stdout.strip() == f"removed {len(before - after)} chunks" and len(before - after) > 0
    for name in ("a", "c"):
        ok("restore", store, name, tmp_path / f"r{name}")
        assert snapshot_of(tmp_path / f"r{name}") == snapshot_of(trees[name])


def test_verify_reports_corruption(tmp_path):
    store = tmp_path / "store"
    a = make_tree(tmp_path / "sa", big=80_000)
    b = tmp_path / "sb"
    b.mkdir()
    (b / "other.bin").write_bytes(rand_bytes(90_000))
    ok("backup", store, a, "alpha")
    ok("backup", store, b, "beta")
    r = ok("verify", store)
    assert r.stdout.strip() == "ok"
    ok("backup", store, b, "gamma")
    files = chunk_files(store)
    # corrupt one chunk used by beta and gamma only (not by alpha)
    victim = None
    whole = (b / "other.bin").read_bytes()
    for name, p in sorted(files.items(), key=lambda kv: (-kv[1].stat().st_size, kv[0])):
        if p.stat().st_size and p.read_bytes() in whole:
            victim = (name, p)
            break
    assert victim, "no chunk of other.bin found"
    data = bytearray(victim[1].read_bytes())
    data[len(data) // 2] ^= 0xFF
    victim[1].write_bytes(bytes(data))
    r = cs("verify", store)
    assert r.returncode == 1
    assert r.stdout.splitlines() == [f"corrupt {victim[0]}", "damaged beta", "damaged gamma"]
