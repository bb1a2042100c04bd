"""/app/avro2jsonl.py on Avro files written here (new records of the four producer versions, other block
layouts and codecs) and with a second reader schema; every record compared with its expected reader view."""
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import avrogen  # noqa: E402

TOOL = "/app/avro2jsonl.py"


def same(a, b):
    if isinstance(b, float) or isinstance(a, float):
        return isinstance(a, (int, float)) and not isinstance(a, bool) and math.isclose(a, b, rel_tol=1e-12, abs_tol=0)
    if isinstance(b, dict):
        return isinstance(a, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in b)
    if isinstance(b, list):
        return isinstance(a, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def run(tmp_path, reader, files):
    rp = tmp_path / "reader.avsc"
    rp.write_text(json.dumps(reader))
    paths = []
    for i, data in enumerate(files):
        p = tmp_path / f"part-{i:03d}.avro"
        p.write_bytes(data)
        paths.append(str(p))
    out = tmp_path / "out.jsonl"
    r = subprocess.run(["python3", TOOL, str(rp), str(out), *paths], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def check(got, exp):
    assert len(got) == len(exp), f"{len(got)} records, expected {len(exp)}"
    for i, (g, e) in enumerate(zip(got, exp)):
        assert same(g, e), f"record {i}: got {g}\nexpected {e}"


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_each_producer_version(tmp_path, version):
    data, exp = avrogen.make_file(100 + version, version, 120)
    check(run(tmp_path, avrogen.READER, [data]), exp)


def test_mixed_files_in_argument_order(tmp_path):
    files, exp = [], []
    for k, v in enumerate([4, 1, 3, 3, 2, 4, 1, 2]):
        data, e = avrogen.make_file(700 + k, v, 40 + 17 * k, codec="deflate" if k % 3 else "null")
        files.append(data)
        exp += e
    check(run(tmp_path, avrogen.READER, files), exp)


def test_another_reader_schema(tmp_path):
    files, exp = [], []
    for k, v in enumerate([1, 2, 3, 4, 4, 3]):
        data, e = avrogen.make_file2(880 + k, v, 60)
        files.append(data)
        exp += e
    check(run(tmp_path, avrogen.READER2, files), exp)


def test_empty_files_and_single_record_blocks(tmp_path):
    empty, _ = avrogen.make_file(5, 2, 0)
    one, exp = avrogen.make_file(6, 4, 1, codec="deflate")
    check(run(tmp_path, avrogen.READER, [empty, one, empty]), exp)


def test_the_lake_sample(tmp_path):
    files = sorted(Path("/app/lake").glob("*.avro"))
    assert len(files) == 8
    out = tmp_path / "lake.jsonl"
    r = subprocess.run(["python3", TOOL, "/app/schemas/event_reader.avsc", str(out), *map(str, files)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    got = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    exp = []
    names = {1: ["2022-11", "2023-02"], 2: ["2023-06", "2023-09"], 3: ["2024-01", "2024-05"], 4: ["2024-10", "2025-03"]}
    k = 0
    for v, ms in names.items():
        for _ in ms:
            k += 1
            exp += avrogen.make_file(9000 + k, v, 150 + 13 * k, codec="deflate" if k % 2 else "null")[1]
    check(got, exp)
    kinds = {g["kind"] for g in got}
    assert "OTHER" in kinds and any(g["device"] and g["device"]["os"] == "UNKNOWN" for g in got)
