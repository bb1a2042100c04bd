"""/app/acx2csv on ACX2 exports generated here and on hand-made ones, compared with what the vendor's viewer
printed (the expected CSV comes from the generated events themselves)."""
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import acxgen  # noqa: E402

TOOL = "/app/acx2csv"
SEED = int.from_bytes(os.urandom(4), "big")


def run(path):
    assert os.access(TOOL, os.X_OK), f"{TOOL} is missing or not executable"
    r = subprocess.run([TOOL, str(path)], capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return r.stdout.decode("utf-8")


def compare(got, want, what):
    g, w = got.splitlines(), want.splitlines()
    for i, (a, b) in enumerate(zip(g, w)):
        assert a == b, f"{what} (seed {SEED}), line {i + 1}:\n got      {a}\n expected {b}"
    assert len(g) == len(w), f"{what}: {len(g)} lines, expected {len(w)}"
    assert got == want, f"{what}: same lines but different bytes (line endings, trailing newline?)"


def check(tmp_path, text, want, what):
    f = tmp_path / "export.acx"
    f.write_text(text, encoding="utf-8")
    compare(run(f), want, what)


def test_samples_reproduced():
    for name in ("hq-ber", "lab-muc", "depot"):
        compare(run(f"/app/samples/{name}.acx"), Path(f"/app/samples/{name}.csv").read_text(encoding="utf-8"), name)


@pytest.mark.parametrize("k", range(3))
def test_new_exports(tmp_path, k):
    rng = random.Random(SEED * 10 + k)
    text, want = acxgen.generate(rng, rng.randint(150, 400), rng.choice(["HQ-BER", "PLANT-2", "DEPOT"]))
    check(tmp_path, text, want, f"generated export {k}")


def test_long_export(tmp_path):
    text, want = acxgen.generate(random.Random(SEED + 99), 4000, "CAMPUS")
    check(tmp_path, text, want, "4000-event export")


HAND = """ACX2 site=TEST utc=-90
; hand-made
E 000000FF "Ada \\"Countess\\" Lovelace"
E 0000ABCD "Grace Hopper"
@1
0 G"Door \\\\A" 000000FF
59 D"Hall, West" 00C0FFEE r4
0 F$0
1 G$1 ^
Z-30
3600 H$1 d31
2 D$0 ^ r2
E 00C0FFEE "Late Enrolment"
86401 G"New" ^
@2C9F1A01
""" + "".join(f'0 F"d{i}"\n' for i in range(3, 12)) + """0 G$2 0000ABCD
;
10 D$11 000000FF r3
"""
HAND_WANT = """utc_time,door,badge,holder,event,detail
2000-01-01T01:30:01Z,Door \\A,255,"Ada ""Countess"" Lovelace",granted,
2000-01-01T01:31:00Z,"Hall, West",12648430,,denied,unknown badge
2000-01-01T01:31:00Z,Door \\A,,,forced,
2000-01-01T01:31:01Z,"Hall, West",12648430,,granted,
2000-01-01T01:31:01Z,"Hall, West",,,held,open 31s
2000-01-01T01:31:03Z,Door \\A,12648430,,denied,wrong zone
2000-01-02T01:31:04Z,New,12648430,Late Enrolment,granted,
""" + "".join(f"TSYNC,d{i},,,forced,\n" for i in range(3, 12)) + """TSYNC,New,43981,Grace Hopper,granted,
TSYNC+10,d11,255,"Ada ""Countess"" Lovelace",denied,PIN failed
"""


def test_hand_made_export(tmp_path):
    """Offsets in minutes (negative, changed mid-file), ^ after a forced/held event, enrolment after use,
    escapes, CSV quoting, two-digit door references, sync points."""
    want = HAND_WANT.replace("TSYNC+10", "2023-09-21T15:43:15Z").replace("TSYNC", "2023-09-21T15:43:05Z")
    check(tmp_path, HAND, want, "hand-made export")
