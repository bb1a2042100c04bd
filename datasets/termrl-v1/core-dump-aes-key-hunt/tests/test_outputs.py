"""/app/keyhunt.py on ELF core files generated here: random memory layouts (ELF64 and ELF32, segments
listed and stored out of order, zero-filled tails, schedules crossing segment boundaries) with planted AES
key schedules of all three sizes and look-alikes that must not be reported."""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import coregen  # noqa: E402

TOOL = "/app/keyhunt.py"
RNG = random.Random(os.urandom(8))
SIZE = {128: 176, 192: 208, 256: 240}


class Placer:
    def __init__(self, core):
        self.core = core
        self.used = []

    def free(self, lo, hi):
        return all(hi <= a or lo >= b for a, b in self.used)

    def spot(self, seg, length):
        for _ in range(1000):
            v = seg[0] + RNG.randrange(0, len(seg[1]) - length)
            if self.free(v - 8, v + length + 8):
                self.used.append((v, v + length))
                return v
        raise AssertionError("no room")

    def claim(self, lo, hi):
        assert self.free(lo, hi)
        self.used.append((lo, hi))

    def plant(self, seg, bits, key=None):
        v = self.spot(seg, SIZE[bits])
        return v, self.core.plant(v, bits, key)


def layout(core, count, base):
    segs, v = [], base
    for _ in range(count):
        size = RNG.randrange(6000, 20000)
        segs.append(core.add_segment(v, size))
        v += size + RNG.choice([0x1000, 0x23000, 0x7F000]) + RNG.randrange(0, 0x1000)
    return segs


def run(core, tmp_path, name="core"):
    path = tmp_path / name
    path.write_bytes(core.to_bytes())
    r = subprocess.run([sys.executable, TOOL, str(path)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert isinstance(out, list), out
    return out


def test_example_core():
    r = subprocess.run([sys.executable, TOOL, "/app/evidence/core.4711"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads(r.stdout) == EXAMPLE


def test_aes128_at_unaligned_addresses(tmp_path):
    core = coregen.Core(RNG)
    segs = layout(core, 4, 0x55D0C4A00000 + RNG.randrange(0, 0x100000) * 0x1000)
    pl = Placer(core)
    for _ in range(4):
        pl.plant(RNG.choice(segs), 128)
    assert run(core, tmp_path) == core.answer()


def test_all_key_sizes_and_repeats(tmp_path):
    core = coregen.Core(RNG)
    segs = layout(core, 5, 0x7F3A00000000 + RNG.randrange(0, 0x100000) * 0x1000)
    pl = Placer(core)
    for bits in (128, 192, 256, 192, 256):
        pl.plant(RNG.choice(segs), bits)
    _, key = pl.plant(segs[0], 256)
    pl.plant(segs[-1], 256, key)            # the same key at a second address
    # two schedules back to back
    v = pl.spot(segs[2], 176 + 240)
    core.plant(v, 128)
    core.plant(v + 176, 256)
    assert run(core, tmp_path) == core.answer()


def test_schedule_across_adjacent_segments(tmp_path):
    core = coregen.Core(RNG)
    base = 0x7FFC00000000 + RNG.randrange(0, 0x1000) * 0x1000
    a = core.add_segment(base, 0x2000)
    b = core.add_segment(base + 0x2000, 0x3000)
    c = core.add_segment(base + 0x5000, 0x1000)
    core.add_segment(base + 0x9000, 0x2000)
    pl = Placer(core)
    for seg_end, bits in ((b[0], 256), (c[0], 192)):
        v = seg_end - RNG.randrange(5, SIZE[bits] - 5)
        pl.claim(v, v + SIZE[bits])
        core.plant(v, bits)
    pl.plant(a, 128)
    assert run(core, tmp_path) == core.answer()


def test_lookalikes_are_not_reported(tmp_path):
    core = coregen.Core(RNG)
    base = 0x561200000000 + RNG.randrange(0, 0x10000) * 0x1000
    segs = layout(core, 4, base)
    pl = Placer(core)
    # a schedule cut by a gap in the address space: its halves are in two segments that are not adjacent
    s = coregen.expand(core.key(256))
    left, right = segs[0], segs[1]
    cut = RNG.randrange(20, 220)
    end = left[0] + len(left[1])
    pl.claim(end - cut, end)
    pl.claim(right[0], right[0] + 240 - cut)
    core.write_at(end - cut, s[:cut])
    core.write_at(right[0], s[cut:])
    real = [pl.plant(RNG.choice(segs), bits) for bits in (128, 256)]
    # one corrupted byte in a schedule (bits decayed)
    for bits in (128, 192, 256):
        v = pl.spot(RNG.choice(segs), SIZE[bits])
        sched = bytearray(coregen.expand(core.key(bits)))
        sched[RNG.randrange(bits // 8, len(sched))] ^= 1 << RNG.randrange(8)
        core.write_at(v, bytes(sched))
    # truncated schedule: the last round key is missing
    v = pl.spot(segs[1], 192)
    core.write_at(v, coregen.expand(core.key(128))[:160] + bytes(RNG.getrandbits(8) | 1 for _ in range(16)))
    # a bare key with no schedule
    v = pl.spot(segs[2], 32)
    core.write_at(v, core.key(256))
    # schedules in the file but outside every mapped segment
    core.file_junk += [coregen.expand(core.key(b)) for b in (128, 256, 192)]
    out = run(core, tmp_path)
    assert out == core.answer(), (out, real)


def test_zero_filled_tail_and_elf32(tmp_path):
    core = coregen.Core(RNG, elf32=True)
    base = 0x08048000 + RNG.randrange(0, 0x100) * 0x1000
    # segment a: 0x1800 bytes in the file, 0x3000 in memory (the rest reads as zeros); b follows a in memory
    a = core.add_segment(base, 0x1800, memsz=0x3000)
    b = core.add_segment(base + 0x3000, 0x2000)
    d = core.add_segment(base + 0x5000, 0x1000, memsz=0x2000)
    e = core.add_segment(base + 0x7000, 0x1000)
    c = core.add_segment(base + 0xA000, 0x4000)
    pl = Placer(core)
    # a schedule whose halves sit at the end of a's file data and the start of b: in memory, zeros lie
    # between them, so it is not a schedule
    s = coregen.expand(core.key(128))
    core.write_at(base + 0x1800 - 100, s[:100])
    core.write_at(b[0], s[100:])
    pl.claim(base + 0x1800 - 100, base + 0x1800)
    pl.claim(b[0], b[0] + 76)
    # a key that begins with zero bytes, its schedule starting in d's zero-filled tail and running into e
    z = RNG.randrange(2, 9)
    key = bytes(z) + core.key(128)[z:]
    pl.claim(e[0] - z, e[0] + 176)
    core.plant(e[0] - z, 128, key)
    # a real schedule just after the decoy's second half
    v = b[0] + 80 + RNG.randrange(0, 50)
    pl.claim(v, v + 240)
    core.plant(v, 256)
    for bits in (128, 192):
        pl.plant(c, bits)
    pl.plant(a, 192)
    pl.plant(d, 128)
    assert run(core, tmp_path) == core.answer()


def test_elf64_mixed_large(tmp_path):
    core = coregen.Core(RNG)
    base = 0x7F1000000000 + RNG.randrange(0, 0x100000) * 0x1000
    segs = []
    v = base
    for _ in range(7):
        size = RNG.randrange(8000, 24000)
        memsz = size + RNG.choice([0, 0, 0x800])
        segs.append(core.add_segment(v, size, memsz=memsz))
        v += memsz if RNG.random() < 0.5 else memsz + 0x10000
    pl = Placer(core)
    for _ in range(8):
        pl.plant(RNG.choice(segs), RNG.choice([128, 192, 256]))
    assert run(core, tmp_path) == core.answer()


EXAMPLE = [
    {"vaddr": 0x55e3a7c001d3, "bits": 128, "key": "a0b7cee0f65a015726c03fc831d9b940"},
    {"vaddr": 0x55e3a7c02fc7, "bits": 256, "key": "18acdc5ab80a76ad17434cb7196817c4c979c358dcb59fc2bc4d9d0c583fc0d3"},
    {"vaddr": 0x55e3a7c06101, "bits": 128, "key": "0efe35635da5751e614ed4c970375524"},
    {"vaddr": 0x7f8e21002a31, "bits": 192, "key": "3a17d16ee9b041251f8acb2c27656150077279004755acca"},
    {"vaddr": 0x7ffd5a2f0777, "bits": 256, "key": "edab403bbfcac46a6052029709d602dba41f83fad4702dd54567e2451e31b19f"},
]
