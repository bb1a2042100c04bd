"""/app/sealcheck.py on sealed logs generated here (fresh keys, random epochs and rotation) with known
tampering: edited entries, deletions, forged insertions, entries re-sealed with a stolen later-epoch key,
truncated and junk lines, wrong field types, a missing rotated file and more than ten rotated files."""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import sealgen  # noqa: E402

TOOL = "/app/sealcheck.py"
RNG = random.Random(os.urandom(8))


def run(tmp_path):
    r = subprocess.run([sys.executable, TOOL, str(tmp_path / "initial.key"), str(tmp_path / "logs")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def spots(n, count, lo=2):
    """`count` positions in [lo, n-3], at least 4 apart."""
    while True:
        pos = sorted(RNG.sample(range(lo, n - 3), count))
        if all(b - a >= 4 for a, b in zip(pos, pos[1:])):
            return pos


def tamper(log, kinds):
    pos = spots(len(log.lines), len(kinds))
    for p, kind in sorted(zip(pos, kinds), reverse=True):
        getattr(log, kind)(p)


def test_example_case():
    r = subprocess.run([sys.executable, TOOL, "/app/case/initial.key", "/app/case/logs"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads(r.stdout) == {
        "entries": 139, "trusted_through": 30, "problems": [
            {"file": "audit.log.3.gz", "line": 27, "seq": 32, "problem": "seq-gap"},
            {"file": "audit.log.1", "line": 24, "seq": 79, "problem": "epoch-regress"},
            {"file": "audit.log.1", "line": 48, "seq": 102, "problem": "bad-mac"},
            {"file": "audit.log.1", "line": 68, "seq": None, "problem": "malformed"}]}


def test_untampered_log_over_rotated_files(tmp_path):
    log = sealgen.Log(RNG, RNG.randint(60, 120))
    want = log.write(tmp_path / "logs", nfiles=4)
    out = run(tmp_path)
    assert out == want
    assert out["problems"] == [] and out["trusted_through"] == len(log.lines)


def test_edited_and_deleted_entries(tmp_path):
    log = sealgen.Log(RNG, 90)
    tamper(log, ["modify", "delete", "modify", "delete"])
    want = log.write(tmp_path / "logs", nfiles=3)
    assert run(tmp_path) == want


def test_forged_insertion_and_stolen_later_key(tmp_path):
    log = sealgen.Log(RNG, 90)
    tamper(log, ["insert_forged", "stolen_later_key", "modify"])
    want = log.write(tmp_path / "logs", nfiles=3)
    assert run(tmp_path) == want


def test_malformed_lines(tmp_path):
    log = sealgen.Log(RNG, 80)
    tamper(log, ["truncate", "junk", "wrong_type", "junk", "modify"])
    want = log.write(tmp_path / "logs", nfiles=2)
    assert run(tmp_path) == want


def test_missing_rotated_file(tmp_path):
    log = sealgen.Log(RNG, 100)
    drop = RNG.randrange(0, 4)
    want = log.write(tmp_path / "logs", nfiles=5, drop=drop)
    out = run(tmp_path)
    assert out == want
    assert [p["problem"] for p in out["problems"]] == ["seq-gap" if drop else "bad-mac"]


def test_more_than_ten_rotations_and_first_entry_edited(tmp_path):
    log = sealgen.Log(RNG, 150)
    tamper(log, ["modify", "delete"])
    log.modify(0)
    want = log.write(tmp_path / "logs", nfiles=13, gz_from=RNG.choice([1, 3, 20]))
    out = run(tmp_path)
    assert out == want
    assert out["trusted_through"] is None


def test_mixed(tmp_path):
    log = sealgen.Log(RNG, 200)
    kinds = ["modify", "delete", "insert_forged", "stolen_later_key", "truncate", "junk", "wrong_type"]
    tamper(log, RNG.sample(kinds, 5) + RNG.sample(kinds, 3))
    want = log.write(tmp_path / "logs", nfiles=RNG.randint(2, 6))
    assert run(tmp_path) == want
