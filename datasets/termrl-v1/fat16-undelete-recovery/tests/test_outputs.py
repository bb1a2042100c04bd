"""/app/undelete.py on FAT16 images generated here: deleted files with and without long names in the root
and in nested (multi-cluster, fragmented) directories, files whose clusters were reused, empty files,
deleted directories, stale entries and several volume geometries."""
import hashlib
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import fatgen  # noqa: E402

TOOL = "/app/undelete.py"
RNG = random.Random(os.urandom(8))


def run(image_bytes, tmp_path):
    img = tmp_path / "disk.img"
    img.write_bytes(image_bytes)
    out = tmp_path / "recovered"
    r = subprocess.run([sys.executable, TOOL, str(img), str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    report = json.loads(r.stdout)
    files = {}
    for dirpath, _, names in os.walk(out):
        for n in names:
            full = os.path.join(dirpath, n)
            files[os.path.relpath(full, out).replace(os.sep, "/")] = open(full, "rb").read()
    return report, files


def check(tree, image_bytes, tmp_path):
    report, files = run(image_bytes, tmp_path)
    exp = tree.expected()
    want = [{"path": p, "size": len(payload), "status": "recovered" if kind == "deleted" else "overwritten"}
            for p, (kind, payload) in sorted(exp.items())]
    assert report == want
    want_files = {p: payload for p, (kind, payload) in exp.items() if kind == "deleted"}
    assert sorted(files) == sorted(want_files)
    for p, payload in want_files.items():
        assert files[p] == payload, p


def test_example_image(tmp_path):
    r = subprocess.run([sys.executable, TOOL, "/app/evidence/usb.img", str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads(r.stdout) == EXAMPLE_REPORT
    for path, digest in EXAMPLE_FILES.items():
        assert hashlib.sha256((tmp_path / "out" / path).read_bytes()).hexdigest() == digest, path
    got = sorted(os.path.relpath(os.path.join(d, n), tmp_path / "out") for d, _, ns in os.walk(tmp_path / "out") for n in ns)
    assert got == sorted(EXAMPLE_FILES)


def test_short_names_in_root(tmp_path):
    t = fatgen.Tree(RNG, spc=2, nclusters=700)
    for _ in range(5):
        t.file("", "live", lfn=False, fragmented=RNG.random() < 0.5)
    for _ in range(4):
        t.file("", "deleted", lfn=False)
    check(t, t.build(), tmp_path)


def test_long_names_in_nested_directories(tmp_path):
    t = fatgen.Tree(RNG, spc=1, nclusters=1400)
    a = t.mkdir("", lfn=True)
    b = t.mkdir(a, lfn=False)
    c = t.mkdir(b, lfn=True)
    for d in (a, b, c):
        # enough entries that the directory needs several (scattered) clusters
        for _ in range(RNG.randint(6, 9)):
            t.file(d, "live", fragmented=True, size=RNG.randint(100, 3000))
        for _ in range(RNG.randint(2, 4)):
            t.file(d, "deleted", lfn=True, size=RNG.randint(1, 4000))
        t.file(d, "deleted", lfn=False, size=RNG.randint(1, 4000))
    check(t, t.build(), tmp_path)


def test_reused_clusters_are_reported_not_recovered(tmp_path):
    t = fatgen.Tree(RNG, spc=4, nclusters=500)
    d = t.mkdir("")
    for where in ("", d):
        for _ in range(4):
            t.file(where, "live", fragmented=True)
        for _ in range(2):
            t.file(where, "overwritten", size=RNG.randint(3000, 12000))
        t.file(where, "deleted")
    check(t, t.build(), tmp_path)


def test_empty_files_deleted_dirs_and_stale_entries(tmp_path):
    t = fatgen.Tree(RNG, spc=2, nclusters=600)
    d = t.mkdir("", lfn=True)
    t.file("", "deleted", lfn=True, size=0)
    t.file(d, "deleted", lfn=False, size=0)
    t.deleted_dir("")
    t.deleted_dir(d)
    for where in ("", d):
        t.file(where, "live")
        t.file(where, "deleted")
    check(t, t.build(root_tail=True), tmp_path)


def test_large_clusters_and_32bit_sector_count(tmp_path):
    t = fatgen.Tree(RNG, spc=64, reserved=4, nclusters=1050, root_entries=512)
    d = t.mkdir("")
    for where in ("", d):
        for _ in range(3):
            t.file(where, "live", size=RNG.randint(20000, 90000), fragmented=True)
        t.file(where, "deleted", size=RNG.randint(40000, 100000))
        t.file(where, "deleted", lfn=False, size=RNG.randint(1, 900))
        t.file(where, "overwritten", size=RNG.randint(40000, 100000))
    check(t, t.build(), tmp_path)


def test_mixed_volume(tmp_path):
    t = fatgen.Tree(RNG, spc=RNG.choice([1, 2, 4]), reserved=RNG.randint(1, 6), nclusters=1300)
    dirs = [""]
    for _ in range(4):
        dirs.append(t.mkdir(RNG.choice(dirs)))
    for _ in range(22):
        t.file(RNG.choice(dirs), RNG.choice(["live", "live", "deleted", "deleted", "overwritten"]),
               fragmented=RNG.random() < 0.4, size=RNG.randint(1, 6000))
    check(t, t.build(root_tail=RNG.random() < 0.5), tmp_path)


EXAMPLE_REPORT = [
    {
        "path": "E00NZ/_V86G.DAT",
        "size": 184,
        "status": "recovered"
    },
    {
        "path": "_EB6UE.DAT",
        "size": 1173,
        "status": "recovered"
    },
    {
        "path": "customers-photo-old (2)/notes_notes_invoice (2)/_4V.CSV",
        "size": 0,
        "status": "recovered"
    },
    {
        "path": "customers-photo-old (2)/notes_notes_invoice (2)/scan-2026.md",
        "size": 1698,
        "status": "recovered"
    },
    {
        "path": "customers-photo-old (2)/old-notes-customers (2).txt",
        "size": 6000,
        "status": "overwritten"
    },
    {
        "path": "customers-photo-old (2)/photo_keys_backup-2026.docx",
        "size": 4246,
        "status": "recovered"
    },
    {
        "path": "keys-payroll-old-report.db",
        "size": 13599,
        "status": "recovered"
    }
]
EXAMPLE_FILES = {
    "keys-payroll-old-report.db": "b0852a6056d52b916e1dc74e4bc8865548ad8cb3a4f9eae70abd7ba07d24b50f",
    "_EB6UE.DAT": "065d9a4a0d68e4e02a0f050dfc4b5d69699483ffa3b0e8671e6a6eb3d3d4e873",
    "customers-photo-old (2)/photo_keys_backup-2026.docx": "ee06e29670ec52e99fd0c726f222fc09db5de414b8d9bbbbfda1536781f93170",
    "customers-photo-old (2)/notes_notes_invoice (2)/scan-2026.md": "8b9e927c0938ec7a19ae387bd1309290cfcdbbbcd0dce4c0f350bbc74bd26b38",
    "customers-photo-old (2)/notes_notes_invoice (2)/_4V.CSV": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "E00NZ/_V86G.DAT": "cac12478af5f9ffe4cac85d5f504906bf186afb5c85a2734697d9aa066727d29"
}
