import os
import random
import struct
import subprocess
import tempfile
import zlib

PROG = "/app/pileup.py"
CODES = "=ACMGRSVTWYHKDBN"
OPS = "MIDNSHP=X"


# ---------- an independent BAM/BGZF writer ----------
def bgzf_block(payload):
    comp = zlib.compressobj(6, zlib.DEFLATED, -15)
    cdata = comp.compress(payload) + comp.flush()
    bsize = 18 + len(cdata) + 8 - 1
    head = b"\x1f\x8b\x08\x04" + b"\0\0\0\0" + b"\0\xff" + struct.pack("<H", 6) + b"BC" + struct.pack("<HH", 2, bsize)
    return head + cdata + struct.pack("<II", zlib.crc32(payload) & 0xFFFFFFFF, len(payload))


EOF_BLOCK = bytes.fromhex("1f8b08040000000000ff0600424302001b0003000000000000000000")


def bgzf(stream, rng):
    out, i = [], 0
    while i < len(stream):
        n = rng.randint(50, 4000)            # records freely cross block boundaries
        out.append(bgzf_block(stream[i:i + n]))
        i += n
    return b"".join(out) + EOF_BLOCK


def record(r):
    name = r["name"].encode() + b"\0"
    cig = b"".join(struct.pack("<I", n << 4 | OPS.index(op)) for n, op in r["cigar"])
    codes = [CODES.index(c) for c in r["seq"]]
    if len(codes) % 2:
        codes.append(0)
    seq = bytes(codes[k] << 4 | codes[k + 1] for k in range(0, len(codes), 2))
    qual = bytes(r["qual"]) if r["qual"] is not None else b"\xff" * len(r["seq"])
    body = struct.pack("<iiBBHHHiiii", r["ref"], r["pos"], len(name), r["mapq"], 4680, len(r["cigar"]),
                       r["flag"], len(r["seq"]), -1, -1, 0) + name + cig + seq + qual + r["tags"]
    return struct.pack("<i", len(body)) + body


def bam_bytes(refs, reads, rng):
    text = b"@HD\tVN:1.6\tSO:unsorted\n" + b"".join(f"@SQ\tSN:{n}\tLN:{ln}\n".encode() for n, ln in refs)
    s = b"BAM\x01" + struct.pack("<i", len(text)) + text + struct.pack("<i", len(refs))
    for n, ln in refs:
        nb = n.encode() + b"\0"
        s += struct.pack("<i", len(nb)) + nb + struct.pack("<i", ln)
    s += b"".join(record(r) for r in reads)
    return bgzf(s, rng)


# ---------- reference pileup ----------
def pileup(refs, reads, min_mapq=0, min_baseq=0):
    cnt = [dict() for _ in refs]
    for r in reads:
        if r["flag"] & (0x4 | 0x100 | 0x200 | 0x400) or r["ref"] < 0 or r["mapq"] < min_mapq:
            continue
        pos, i = r["pos"], 0
        for n, op in r["cigar"]:
            for _ in range(n):
                if op in "M=X":
                    if r["qual"] is None or r["qual"][i] >= min_baseq:
                        b = r["seq"][i]
                        row = cnt[r["ref"]].setdefault(pos, [0] * 6)
                        row["ACGT".index(b) if b in "ACGT" else 4] += 1
                    pos, i = pos + 1, i + 1
                elif op in "IS":
                    i += 1
                elif op == "D":
                    cnt[r["ref"]].setdefault(pos, [0] * 6)[5] += 1
                    pos += 1
                elif op == "N":
                    pos += 1
    lines = []
    for (name, _), c in zip(refs, cnt):
        for p in sorted(c):
            lines.append("\t".join([name, str(p + 1)] + [str(v) for v in c[p]]))
    return lines


# ---------- random reads ----------
def rand_cigar(rng, qlen_target):
    ops = []
    if rng.random() < 0.2:
        ops.append((rng.randint(1, 10), "H"))
    if rng.random() < 0.3:
        ops.append((rng.randint(1, 15), "S"))
    for k in range(rng.randint(1, 5)):
        ops.append((rng.randint(3, 40), rng.choice("MMMM=X")))
        if rng.random() < 0.6:
            ops.append((rng.randint(1, 6) if rng.random() > 0.2 else rng.randint(50, 300), rng.choice("IDDNP")))
    ops.append((rng.randint(3, 30), "M"))
    if rng.random() < 0.3:
        ops.append((rng.randint(1, 15), "S"))
    if rng.random() < 0.2:
        ops.append((rng.randint(1, 10), "H"))
    return ops


def rand_read(rng, k, refs, quals=True):
    cig = rand_cigar(rng, 100)
    qlen = sum(n for n, op in cig if op in "MIS=X")
    seq = "".join(rng.choice("ACGT") if rng.random() > 0.04 else rng.choice("N=RYKMSWBDHV") for _ in range(qlen))
    ref = rng.randrange(len(refs))
    flag = rng.choice([0, 0, 0, 16, 1 | 2 | 32 | 64, 1 | 2 | 16 | 128]) | \
        rng.choice([0] * 12 + [0x4, 0x100, 0x200, 0x400, 0x800, 0x800 | 16])
    r = {"name": f"read{k}:{rng.randint(0, 99999)}", "ref": ref, "pos": rng.randint(0, refs[ref][1] - 50),
         "mapq": rng.choice([0, 3, 20, 37, 60, 60, 255]), "flag": flag, "cigar": cig, "seq": seq,
         "qual": [rng.randint(2, 41) for _ in seq] if quals and rng.random() > 0.1 else None,
         "tags": rng.choice([b"", b"NMC" + bytes([rng.randint(0, 9)]), b"RGZgrp1\0AS" + b"i" + struct.pack("<i", 77)])}
    if rng.random() < 0.03:
        r["ref"], r["flag"] = -1, 0x4
    return r


def write(blob):
    d = tempfile.mkdtemp()
    p = os.path.join(d, "in.bam")
    with open(p, "wb") as fh:
        fh.write(blob)
    return p


def run(path, *opts):
    return subprocess.run(["python3", PROG, path, *opts], capture_output=True, text=True, timeout=300)


def check(refs, reads, rng, min_mapq=0, min_baseq=0):
    opts = []
    if min_mapq:
        opts += ["--min-mapq", str(min_mapq)]
    if min_baseq:
        opts += ["--min-baseq", str(min_baseq)]
    p = run(write(bam_bytes(refs, reads, rng)), *opts)
    assert p.returncode == 0, p.stderr[-1500:]
    got = p.stdout.splitlines()
    want = pileup(refs, reads, min_mapq, min_baseq)
    assert want, "generator must produce coverage"
    if got != want:
        gs, ws = set(got), set(want)
        extra, missing = sorted(gs - ws)[:3], sorted(ws - gs)[:3]
        assert False, f"{len(got)} lines, expected {len(want)}; unexpected {extra}; missing {missing}; order ok: {gs == ws}"


# ---------- tests ----------
def test_simple_matches():
    rng = random.Random(1)
    refs = [("chr1", 500)]
    reads = []
    for k in range(40):
        L = rng.randint(20, 80)
        seq = "".join(rng.choice("ACGT") for _ in range(L))
        reads.append({"name": f"r{k}", "ref": 0, "pos": rng.randint(0, 420), "mapq": 60, "flag": rng.choice([0, 16]),
                      "cigar": [(L, "M")], "seq": seq, "qual": [30] * L, "tags": b""})
    check(refs, reads, rng)


def test_cigar_operations():
    rng = random.Random(2)
    refs = [("ctg", 3000)]
    reads = [rand_read(rng, k, refs) for k in range(150)]
    for r in reads:
        r["flag"] &= ~0x704
        r["ref"] = 0
    check(refs, reads, rng)


def test_flag_filters_and_supplementary():
    rng = random.Random(3)
    refs = [("chrA", 1500), ("chrB", 900)]
    reads = [rand_read(rng, k, refs) for k in range(200)]
    for k, f in enumerate((0x4, 0x100, 0x200, 0x400, 0x800, 0x800 | 0x10)):
        reads[k]["flag"] = f
    check(refs, reads, rng)


def test_mapq_and_base_quality_thresholds():
    rng = random.Random(4)
    refs = [("s1", 1200), ("s2", 700), ("s3", 400)]
    reads = [rand_read(rng, k, refs) for k in range(220)]
    check(refs, reads, rng, min_mapq=20)
    check(refs, reads, rng, min_baseq=25)
    check(refs, reads, rng, min_mapq=37, min_baseq=13)


def test_many_blocks_and_references_in_header_order():
    rng = random.Random(5)
    refs = [(f"scaffold_{i}", rng.randint(300, 1200)) for i in (9, 2, 10, 1)]
    reads = [rand_read(rng, k, refs) for k in range(600)]
    rng.shuffle(reads)
    check(refs, reads, rng)


def test_errors():
    rng = random.Random(6)
    refs = [("chr1", 400)]
    reads = [rand_read(rng, k, refs) for k in range(20)]
    good = bam_bytes(refs, reads, rng)
    assert run(write(good)).returncode == 0, "a valid BAM must work before the error cases count"
    plain = zlib.compress(b"x")
    for blob, what in ((b"@HD\tVN:1.6\n", "SAM text"), (bgzf(b"CRAM" + b"\0" * 40, rng), "wrong BAM magic"),
                       (plain, "zlib, not gzip")):
        p = run(write(blob))
        assert p.returncode == 2 and p.stdout.strip() == "" and p.stderr.strip(), f"{what}: exit {p.returncode}"
