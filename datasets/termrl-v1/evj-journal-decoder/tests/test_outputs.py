"""/app/evjcat on journals written here (other devices, clock offsets, strings, values, damage), compared
byte for byte with what the vendor viewer printed for them."""
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import evjgen  # noqa: E402

TOOL = "/app/evjcat"


def run(tmp_path, data, name="j.evj"):
    p = tmp_path / name
    p.write_bytes(data)
    r = subprocess.run([TOOL, str(p)], capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return r.stdout.decode("utf-8")


def first_diff(got, exp):
    g, e = got.splitlines(), exp.splitlines()
    for i, (a, b) in enumerate(zip(g, e)):
        if a != b:
            return f"line {i + 1}: got {a!r}, expected {b!r}"
    return f"got {len(g)} lines, expected {len(e)}"


def check(tmp_path, data, exp):
    got = run(tmp_path, data)
    assert got == exp, first_diff(got, exp)


@pytest.mark.parametrize("seed,tz", [(11, 0), (2024, -210), (77, 545), (31337, 60)])
def test_new_journals(tmp_path, seed, tz):
    data, exp = evjgen.make(seed, tz=tz, n_frames=30)
    check(tmp_path, data, exp)


@pytest.mark.parametrize("tz", [-1, -59, -61, -570, 59, 840, -720])
def test_clock_offsets(tmp_path, tz):
    data, exp = evjgen.make(500 + tz, tz=tz, n_frames=4, p_damage=0)
    check(tmp_path, data, exp)


def test_heavily_damaged_journal_loses_strings(tmp_path):
    data, exp = evjgen.make(9001, n_frames=40, p_damage=0.45, truncate=False)
    assert exp.count("checksum mismatch") >= 10 and "<#" in exp
    check(tmp_path, data, exp)


def test_damage_in_checksum_only(tmp_path):
    # the payload is intact and parses; only the stored checksum is wrong
    data, exp = evjgen.make(4321, n_frames=3, p_damage=0, truncate=False, tz=120)
    data = bytearray(data)
    hdr = 7 + data[6]
    (ln,) = struct.unpack_from("<H", data, hdr + 1)
    off2 = hdr + 3 + ln + 4
    (ln2,) = struct.unpack_from("<H", data, off2 + 1)
    data[off2 + 3 + ln2 + 1] ^= 0x10
    data, exp2 = bytes(data), evjgen.make(4321, n_frames=3, p_damage=0, truncate=False, tz=120)[1]
    got = run(tmp_path, data)
    lines = got.splitlines()
    assert f"!! frame @{off2}: checksum mismatch, {ln2 + 7} bytes skipped" in lines, got
    assert lines[-1].endswith(", 1 bad frames")


@pytest.mark.parametrize("cut", [1, 2, 3, 5, -4, -1])
def test_truncated_tail(tmp_path, cut):
    data, exp = evjgen.make(606, n_frames=5, p_damage=0, truncate=False, tz=-480)
    hdr = 7 + data[6]
    offs, i = [], hdr
    while i < len(data):
        offs.append(i)
        i += 3 + struct.unpack_from("<H", data, i + 1)[0] + 4
    last = offs[-1]
    end = last + cut if cut > 0 else len(data) + cut
    got = run(tmp_path, data[:end])
    full = run(tmp_path, data)
    assert full == exp, first_diff(full, exp)
    body = [ln for ln in exp.splitlines()[:-1]]
    # everything before the last frame is printed, then the truncation line and the totals
    n_last = sum(1 for ln in got.splitlines() if not ln.startswith(("#", "!!")))
    assert got.splitlines()[-2] == f"!! frame @{last}: truncated", got
    assert got.splitlines()[:n_last + 2] == body[:n_last + 2]
    assert got.splitlines()[-1] == f"# {n_last} events, 1 bad frames"


def test_empty_and_minimal(tmp_path):
    name = "x" * 200
    data = b"EVJ2" + struct.pack("<hB", -45, len(name)) + name.encode()
    assert run(tmp_path, data) == f"# device: {name}\n# clock: UTC-00:45\n# 0 events, 0 bad frames\n"
    # one frame: a sync, padding, a string, one event with an unknown source
    pay = bytearray(b"\x03" + evjgen.varint(0) + b"\x00\x00" + b"\x01" + evjgen.varint(70000) + b"\x04ok{}")
    pay += b"\x02" + evjgen.varint(86_400_000 * 366 + 1) + b"\x04" + evjgen.varint(3) + evjgen.varint(70000) + b"\x01"
    pay += b"\x00" + evjgen.varint(evjgen.zigzag(-(2 ** 50)))
    frame = b"\xf5" + struct.pack("<H", len(pay)) + bytes(pay) + struct.pack("<I", zlib.crc32(pay))
    got = run(tmp_path, data + frame)
    assert got.splitlines()[2:] == ["2020-12-31 23:15:00.001 FATAL <#3>: ok-1125899906842624",
                                    "# 1 events, 0 bad frames"]


def test_many_strings_and_large_ids(tmp_path):
    data, exp = evjgen.make(123456, n_frames=25, first_id=16380, p_damage=0.1)
    check(tmp_path, data, exp)


def test_samples_still_reproduced(tmp_path):
    for name in ("station7", "buoy41"):
        data = Path(f"/app/samples/{name}.evj").read_bytes()
        exp = evjgen.make(0, n_frames=18, p_damage=0.25, truncate=True, tz=330, device="pump-station-7",
                          first_id=118) if name == "station7" else \
            evjgen.make(0, n_frames=12, p_damage=0.2, truncate=False, tz=-300, device="buoy-41", first_id=97)
        assert exp[0] == data, "the sample journals in /app/samples were modified"
        check(tmp_path, data, exp[1])
