"""/app/stegx.py on screenshot folders generated here: RGB and RGBA PNGs written with random filter types
per row and split IDAT chunks, carrying hidden files (or not), with corrupted streams, unsupported
formats and hostile embedded names."""
import hashlib
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import pnggen as P  # noqa: E402

TOOL = "/app/stegx.py"
RNG = random.Random(os.urandom(8))


def payload():
    if RNG.random() < 0.5:
        words = ["customer", "iban", "DE89", "salary", "password", "export", "2026", "q4", "secret", "list"]
        return (" ".join(RNG.choice(words) for _ in range(RNG.randint(10, 80))) + "\n").encode()
    return RNG.randbytes(RNG.randint(1, 500))


def picture(bpp=None, w=None, h=None):
    bpp = bpp or RNG.choice([3, 4])
    return P.image(RNG, w or RNG.randint(56, 80), h or RNG.randint(40, 56), bpp), bpp


def run(indir, outdir):
    r = subprocess.run([sys.executable, TOOL, str(indir), str(outdir)], capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def files_in(d):
    return {f: (d / f).read_bytes() for f in os.listdir(d)} if d.exists() else {}


def test_rgb_and_rgba_carriers(tmp_path):
    src, out = tmp_path / "shots", tmp_path / "out"
    src.mkdir()
    want, report = {}, []
    for i in range(4):
        rows, bpp = picture(bpp=3 if i % 2 else 4)
        name, data = f"dump-{i}-{RNG.getrandbits(16):04x}.{RNG.choice(['txt', 'bin', 'csv'])}", payload()
        P.embed(rows, bpp, P.stream(name, data), RNG)
        fn = f"shot{i:02d}.png"
        (src / fn).write_bytes(P.encode(rows, bpp, RNG))
        want[name] = data
        report.append({"image": fn, "status": "extracted", "name": name, "size": len(data)})
    assert run(src, out) == report
    assert files_in(out) == want


def test_clean_truncated_and_corrupted_streams(tmp_path):
    src, out = tmp_path / "shots", tmp_path / "out"
    src.mkdir()
    report, want = [], {}
    rows, bpp = picture()
    P.embed(rows, bpp, RNG.randbytes(40), RNG)                              # plain noise in the low bits
    (src / "a-clean.png").write_bytes(P.encode(rows, bpp, RNG))
    report.append({"image": "a-clean.png", "status": "no-payload", "name": None, "size": None})
    rows, bpp = picture()
    s = bytearray(P.stream("cut.bin", payload()))
    s[-5] ^= 0x10                                                           # a payload bit flipped
    P.embed(rows, bpp, bytes(s), RNG)
    (src / "b-flipped.png").write_bytes(P.encode(rows, bpp, RNG))
    report.append({"image": "b-flipped.png", "status": "bad-crc", "name": None, "size": None})
    rows, bpp = picture(w=40, h=30)
    big = P.stream("huge.bin", RNG.randbytes(300))
    fake = big[:5 + 8] + (10**6).to_bytes(4, "big") + big[17:40]            # claims more than fits
    P.embed(rows, bpp, fake, RNG)
    (src / "c-toolong.png").write_bytes(P.encode(rows, bpp, RNG))
    report.append({"image": "c-toolong.png", "status": "no-payload", "name": None, "size": None})
    rows, bpp = picture()
    data = payload()
    P.embed(rows, bpp, P.stream("ok.txt", data), RNG)
    (src / "d-ok.PNG").write_bytes(P.encode(rows, bpp, RNG, split=False, text=False))
    report.append({"image": "d-ok.PNG", "status": "extracted", "name": "ok.txt", "size": len(data)})
    want["ok.txt"] = data
    assert run(src, out) == report
    assert files_in(out) == want


def test_unsupported_images_and_other_files(tmp_path):
    src, out = tmp_path / "shots", tmp_path / "out"
    src.mkdir()
    rows, bpp = picture(bpp=3)
    P.embed(rows, bpp, P.stream("x.bin", b"abc"), RNG)
    variants = {
        "gray.png": dict(ctype=0),
        "palette.png": dict(ctype=3),
        "deep.png": dict(depth=16),
        "interlaced.png": dict(interlace=1),
    }
    report = []
    for fn, kw in sorted(variants.items()):
        (src / fn).write_bytes(P.encode([bytearray(r) for r in rows], bpp, RNG, **kw))
    (src / "notreally.png").write_bytes(b"GIF89a" + RNG.randbytes(200))
    (src / "notes.txt").write_bytes(P.encode([bytearray(r) for r in rows], bpp, RNG))
    for fn in sorted(os.listdir(src)):
        if fn.endswith(".png"):
            report.append({"image": fn, "status": "unsupported", "name": None, "size": None})
    assert run(src, out) == report
    assert files_in(out) == {}


def test_hostile_embedded_names(tmp_path):
    src, out = tmp_path / "case" / "shots", tmp_path / "case" / "out"
    src.mkdir(parents=True)
    cases = [("../../etc/cron.d/evil", "evil"), ("..", "p2.bin"), ("C:\\Users\\bob\\keys.kdbx", "keys.kdbx"),
             ("reports/2026/q3.xlsx", "q3.xlsx"), ("", "p5.bin")]
    report, want = [], {}
    for i, (name, written) in enumerate(cases, 1):
        rows, bpp = picture()
        data = payload()
        P.embed(rows, bpp, P.stream(name, data), RNG)
        (src / f"p{i}.png").write_bytes(P.encode(rows, bpp, RNG))
        report.append({"image": f"p{i}.png", "status": "extracted", "name": written, "size": len(data)})
        want[written] = data
    assert run(src, out) == report
    assert files_in(out) == want
    assert sorted(os.listdir(tmp_path / "case")) == ["out", "shots"]
    assert not (tmp_path / "etc").exists()


def test_example_screenshots(tmp_path):
    out = tmp_path / "out"
    report = run("/app/screenshots", out)
    assert [(e["image"], e["status"], e["name"], e["size"]) for e in report] == EXAMPLE
    got = {f: hashlib.sha256(b).hexdigest() for f, b in files_in(out).items()}
    assert got == EXAMPLE_SHA


EXAMPLE = [("IMG_0412.png", "extracted", "payroll-2026.csv", 92), ("IMG_0413.png", "no-payload", None, None), ("IMG_0414.png", "extracted", "id_ed25519", 371), ("IMG_0415.png", "bad-crc", None, None)]
EXAMPLE_SHA = {
    "id_ed25519": "6f6332dc941c6a83655d44c5f49095493f9cb9634df429f6635f1721530e1fc0",
    "payroll-2026.csv": "ce6f5751c1064a88b5e605e83e63ad311631afc3418ebef1d506298b3df71ce4"
}
