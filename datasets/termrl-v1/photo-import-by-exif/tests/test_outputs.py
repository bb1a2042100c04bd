"""/app/import_photos.py on photo folders generated here (EXIF in both byte orders, fallbacks, duplicates,
same-second bursts, impostors), checked against the capture times the files were made with."""
import os
import random
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import jpeggen as jg  # noqa: E402

TOOL = "/app/import_photos.py"
RNG = random.Random(random.getrandbits(64))


def run(src, dst):
    r = subprocess.run(["python3", TOOL, str(src), str(dst)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return [l for l in r.stdout.splitlines() if l.strip()]


def write(src, rel, data, mtime=None):
    p = src / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    if mtime is not None:
        os.utime(p, (mtime, mtime))


def library(src):
    """Write a random photo folder. -> {relpath: (bytes, capture datetime or None for impostors)}."""
    files = {}
    folders = ["", "DCIM/100CANON/", "phone/", "Phone Backup/2019/", "misc/"]
    burst = jg.random_dt(RNG)
    for k in range(RNG.randint(15, 30)):
        kind = RNG.random()
        dt = burst if RNG.random() < 0.2 else jg.random_dt(RNG)
        ext = RNG.choice([".jpg", ".JPG", ".jpeg", ".JPEG"])
        rel = f"{RNG.choice(folders)}IMG_{RNG.randint(0, 9999):04d}{ext}"
        if rel in files:
            continue
        if kind < 0.55:
            mod = jg.stamp(dt + timedelta(days=RNG.randint(1, 900))) if RNG.random() < 0.5 else None
            off = RNG.choice([None, "+02:00", "-05:00"])
            data = jg.jpeg(RNG, original=jg.stamp(dt), modified=mod, offset=off)
        elif kind < 0.7:
            data = jg.jpeg(RNG, modified=jg.stamp(dt))                        # only IFD0 DateTime
        elif kind < 0.85:
            data = jg.jpeg(RNG, exif=False)                                     # no EXIF: file time
            mt = int(dt.replace(tzinfo=timezone.utc).timestamp())
            write(src, rel, data, mt)
            files[rel] = (data, dt)
            continue
        elif kind < 0.93 and files:
            other = RNG.choice(sorted(files))                                   # a copy of another photo
            data, dt = files[other]
            if dt is None:
                continue
            if other in files and (src / other).exists():
                mt = int((src / other).stat().st_mtime)
                write(src, rel, data, mt)
                files[rel] = (data, dt)
                continue
        else:
            data, dt = RNG.choice([b"\x89PNG\r\n\x1a\n" + os.urandom(40), b"not really a photo\n"]), None
        write(src, rel, data)
        files[rel] = (data, dt)
    write(src, "notes.txt", b"holiday notes\n")
    write(src, "misc/thumb.png", b"\x89PNG\r\n\x1a\n" + os.urandom(20))
    return files


def expected(files, dest_state):
    """dest_state: {relpath in DEST: bytes} (updated). -> expected report lines."""
    lines = []
    for rel in sorted(files):
        data, dt = files[rel]
        if dt is None:
            lines.append(f"{rel} skipped: not a JPEG")
            continue
        base = f"{dt:%Y}/{dt:%m}/{dt:%Y%m%d_%H%M%S}"
        n = 1
        while True:
            name = f"{base}.jpg" if n == 1 else f"{base}_{n}.jpg"
            if name not in dest_state:
                dest_state[name] = data
                lines.append(f"{rel} -> {name}")
                break
            if dest_state[name] == data:
                lines.append(f"{rel} duplicate of {name}")
                break
            n += 1
    return lines


def dest_files(dst):
    return {p.relative_to(dst).as_posix(): p.read_bytes() for p in dst.rglob("*") if p.is_file()}


def check(tmp_path, files, dest_state):
    src, dst = tmp_path / "src", tmp_path / "dest"
    src_before = {p: p.read_bytes() for p in src.rglob("*") if p.is_file()}
    got = run(src, dst)
    want = expected(files, dest_state)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"report line {i + 1}: got {g!r}, expected {w!r}"
    assert len(got) == len(want), f"{len(got)} report lines, expected {len(want)}: {got[len(want):][:3]}"
    assert dest_files(dst) == dest_state, "the destination tree differs from the report"
    assert {p: p.read_bytes() for p in src.rglob("*") if p.is_file()} == src_before, "source files were changed"


def test_import_library(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    files = library(src)
    check(tmp_path, files, {})


def test_second_import_finds_only_duplicates(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    files = library(src)
    state = {}
    check(tmp_path, files, state)
    check(tmp_path, files, state)
    assert all(" -> " not in l for l in expected(files, dict(state)))


def test_both_byte_orders_and_tag_precedence(tmp_path):
    src = tmp_path / "src"
    t1, t2 = datetime(2021, 7, 4, 9, 8, 7), datetime(2023, 1, 2, 3, 4, 5)
    files = {}
    for k in range(12):
        data = jg.jpeg(RNG, original=jg.stamp(t1 + timedelta(seconds=k)), modified=jg.stamp(t2), offset="+09:00")
        files[f"a/{k:02d}.jpg"] = (data, t1 + timedelta(seconds=k))
        write(src, f"a/{k:02d}.jpg", data)
    data = jg.jpeg(RNG, modified=jg.stamp(t2))
    files["b/only-datetime.JPG"] = (data, t2)
    write(src, "b/only-datetime.JPG", data)
    check(tmp_path, files, {})


def test_same_second_burst_and_existing_destination(tmp_path):
    src, dst = tmp_path / "src", tmp_path / "dest"
    t = datetime(2020, 2, 29, 23, 59, 59)
    shots = [jg.jpeg(RNG, original=jg.stamp(t)) for _ in range(4)]
    state = {"2020/02/20200229_235959.jpg": shots[2]}       # imported last week
    for name, data in state.items():
        (dst / name).parent.mkdir(parents=True, exist_ok=True)
        (dst / name).write_bytes(data)
    files = {}
    for k, data in enumerate(shots):
        files[f"burst/{k}.jpeg"] = (data, t)
        write(src, f"burst/{k}.jpeg", data)
    files["burst/9-copy.jpeg"] = (shots[0], t)
    write(src, "burst/9-copy.jpeg", shots[0])
    check(tmp_path, files, state)
    assert sorted(state) == ["2020/02/20200229_235959.jpg", "2020/02/20200229_235959_2.jpg",
                             "2020/02/20200229_235959_3.jpg", "2020/02/20200229_235959_4.jpg"]


def test_impostors_other_files_and_file_time_fallback(tmp_path):
    src = tmp_path / "src"
    t = datetime(2018, 12, 31, 23, 30, 0)
    files = {"x/fake.jpg": (b"\x89PNG\r\n\x1a\n" + bytes(30), None), "x/empty.JPG": (b"", None),
             "x/text.jpeg": (b"just text\n", None)}
    for rel, (data, _) in files.items():
        write(src, rel, data)
    plain = jg.jpeg(RNG, exif=False)
    write(src, "y/scan.jpg", plain, int(t.replace(tzinfo=timezone.utc).timestamp()))
    files["y/scan.jpg"] = (plain, t)
    write(src, "y/readme.txt", b"scans from the old album\n")
    write(src, "y/cover.png", b"\x89PNG\r\n\x1a\n")
    check(tmp_path, files, {})
    assert sorted(p.relative_to(tmp_path / "dest").as_posix() for p in (tmp_path / "dest").rglob("*.jpg")) == \
        ["2018/12/20181231_233000.jpg"]
