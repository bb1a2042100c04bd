import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spxgen  # noqa: E402  (test-side writer of hidden .spx files)

PROG = "/app/spx2csv.py"


def convert(blob):
    d = tempfile.mkdtemp()
    src, dst = os.path.join(d, "in.spx"), os.path.join(d, "out.csv")
    with open(src, "wb") as fh:
        fh.write(blob)
    p = subprocess.run(["python3", PROG, src, dst], capture_output=True, text=True, timeout=300)
    return p, dst


def split(text):
    lines = text.splitlines()
    head = [l for l in lines if l.startswith("#")]
    rest = [l for l in lines if not l.startswith("#")]
    return head, rest


def check(blob, info, what):
    p, dst = convert(blob)
    assert p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr[-800:]}"
    with open(dst) as fh:
        got = fh.read()
    want = spxgen.csv_text(info)
    gh, gr = split(got)
    wh, wr = split(want)
    assert gh == wh, f"{what}: header lines {gh}, expected {wh}"
    assert gr and gr[0] == wr[0], f"{what}: column line {gr[:1]}, expected {wr[0]!r}"
    assert len(gr) == len(wr), f"{what}: {len(gr) - 1} rows, expected {len(wr) - 1}"
    for i, (g, w) in enumerate(zip(gr[1:], wr[1:])):
        g3, w3 = g.split(","), w.split(",")
        assert len(g3) == 3, f"{what}: row {i}: {g!r}"
        assert g3[1] == w3[1], f"{what}: row {i}: counts {g3[1]}, expected {w3[1]}"
        assert abs(float(g3[0]) - float(w3[0])) <= 1.01e-4, f"{what}: row {i}: wavelength {g3[0]}, expected {w3[0]}"
        assert abs(float(g3[2]) - float(w3[2])) <= 1.01e-2, f"{what}: row {i}: rate {g3[2]}, expected {w3[2]}"


def test_version1_files():
    rng = random.Random(101)
    for k in range(5):
        blob, info = spxgen.make(rng, 1, False, rng.choice([0, 0, 2, 7, 16]))
        check(blob, info, f"v1 file {k}")


def test_version2_files():
    rng = random.Random(202)
    for k in range(5):
        blob, info = spxgen.make(rng, 2, False, rng.choice([0, 3, 12]))
        check(blob, info, f"v2 file {k}")


def test_dark_frame_files():
    rng = random.Random(303)
    for k in range(5):
        blob, info = spxgen.make(rng, 2, True, rng.choice([0, 0, 5, 10, 20]))
        check(blob, info, f"v2 dark-frame file {k}")


def test_long_spectra():
    rng = random.Random(404)
    for v, dark in ((1, False), (2, False), (2, True)):
        blob, info = spxgen.make(rng, v, dark, rng.choice([0, 4]), n=rng.choice([2048, 3648]))
        check(blob, info, f"long v{v}{' dark-frame' if dark else ''} file")


def test_integrity_check():
    rng = random.Random(505)
    blob, info = spxgen.make(rng, 2, True, 4)
    p, dst = convert(blob)
    assert p.returncode == 0, "a valid file must convert before the error cases count"
    bad = bytearray(blob)
    bad[rng.randrange(12, len(bad) - 8)] ^= 0x10
    for data, what in ((bytes(bad), "one flipped bit"), (blob[:-1], "truncated file"),
                       (b"PK\x03\x04" + blob[4:], "not an .spx file")):
        p, dst = convert(data)
        assert p.returncode == 2, f"{what}: exit {p.returncode}, expected 2"
        assert p.stderr.strip(), f"{what}: message on stderr expected"
        assert not os.path.exists(dst), f"{what}: OUT.csv must not be created"
