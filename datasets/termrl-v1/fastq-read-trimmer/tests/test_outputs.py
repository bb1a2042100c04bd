import gzip
import json
import os
import random
import subprocess
import tempfile

PROG = "/app/fqtrim.py"
ADAPTER = "AGATCGGAAGAGC"


# ---------- independent reference (brute force) ----------
def ref_trim(reads, adapter, Q=20, L=20, F=0.1):
    adapter = adapter.upper()
    st = dict(reads_in=0, reads_out=0, adapter_trimmed=0, too_short=0, too_many_n=0, bases_in=0, bases_out=0)
    out = []
    for header, seq, qual in reads:
        st["reads_in"] += 1
        st["bases_in"] += len(seq)
        cands = [p for p in range(len(seq))
                 if seq[p:p + len(adapter)] == adapter
                 or (len(seq) - p < len(adapter) and len(seq) - p >= 3 and adapter[:len(seq) - p] == seq[p:])]
        if cands:
            st["adapter_trimmed"] += 1
            seq, qual = seq[:min(cands)], qual[:min(cands)]
        sums = [(sum(Q - (ord(c) - 33) for c in qual[k:]), k) for k in range(len(qual) + 1)]
        best = max(s for s, _ in sums)
        keep = len(qual) if best <= 0 else max(k for s, k in sums if s == best)
        seq, qual = seq[:keep], qual[:keep]
        if len(seq) < L:
            st["too_short"] += 1
        elif seq.count("N") / len(seq) > F:
            st["too_many_n"] += 1
        else:
            st["reads_out"] += 1
            st["bases_out"] += len(seq)
            out.append((header, seq, qual))
    return out, st


# ---------- generators ----------
def rand_read(rng, i, adapter=ADAPTER, nfrac=0.02):
    n = rng.randint(15, 90)
    seq = "".join(rng.choice("ACGT") if rng.random() > nfrac else "N" for _ in range(n))
    kind = rng.random()
    if kind < 0.3:
        pos = rng.randint(0, n)
        seq = (seq[:pos] + adapter + seq[pos:])[:n + rng.randint(0, len(adapter))]
    elif kind < 0.5:
        k = rng.randint(1, len(adapter) - 1)
        seq = seq + adapter[:k]
    qual = []
    for j in range(len(seq)):
        if rng.random() < 0.15:
            qual.append(rng.randint(0, 12))
        elif j > len(seq) * 0.7:
            qual.append(rng.randint(2, 38))
        else:
            qual.append(rng.randint(25, 41))
    qual = "".join(chr(33 + q) for q in qual)
    header = f"@r{i}:{rng.randint(1000, 9999)}" + (f" lane={rng.randint(1, 8)}" if rng.random() < 0.5 else "")
    return header, seq, qual


def write_fastq(reads, wrap=None, rng=None, repeat_plus=False):
    lines = []
    for h, s, q in reads:
        lines.append(h)
        if wrap:
            w = rng.randint(5, wrap)
            lines += [s[i:i + w] for i in range(0, len(s), w)] or [""]
            lines.append("+" + (h[1:] if repeat_plus else ""))
            w = rng.randint(5, wrap)
            lines += [q[i:i + w] for i in range(0, len(q), w)] or [""]
        else:
            lines += [s, "+" + (h[1:] if repeat_plus else ""), q]
    return ("\n".join(lines) + "\n").encode()


def run(data, *opts, adapter=ADAPTER, name="in.fastq"):
    d = tempfile.mkdtemp()
    inp, out = os.path.join(d, name), os.path.join(d, "out.fastq")
    with open(inp, "wb") as fh:
        fh.write(data)
    proc = subprocess.run(["python3", PROG, "--adapter", adapter, *opts, inp, out],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    st = json.loads(proc.stdout)
    text = open(out).read()
    lines = text.splitlines()
    assert len(lines) % 4 == 0, "output is not four lines per record"
    recs = [(lines[i], lines[i + 1], lines[i + 3]) for i in range(0, len(lines), 4)]
    assert all(lines[i + 2] == "+" for i in range(0, len(lines), 4)), "separator line must be a bare +"
    return recs, st


def check(reads, data, *opts, adapter=ADAPTER, name="in.fastq", **kw):
    want_recs, want_st = ref_trim(reads, adapter, **kw)
    recs, st = run(data, *opts, adapter=adapter, name=name)
    assert len(recs) == len(want_recs), f"{len(recs)} reads written, expected {len(want_recs)}"
    for got, want in zip(recs, want_recs):
        assert got == want, f"read {want[0]}: got {got[1:]}, expected {want[1:]}"
    for k, v in want_st.items():
        assert st.get(k) == v, f"{k}: got {st.get(k)}, expected {v}"


def test_plain_four_line_records():
    rng = random.Random(1101)
    reads = [rand_read(rng, i) for i in range(300)]
    check(reads, write_fastq(reads))


def test_gzip_detected_by_magic_not_name():
    rng = random.Random(2202)
    reads = [rand_read(rng, i) for i in range(200)]
    data = gzip.compress(write_fastq(reads, repeat_plus=True))
    check(reads, data, name="reads.fastq")          # gzip content, plain-looking name
    rng = random.Random(2203)
    reads = [rand_read(rng, i) for i in range(50)]
    check(reads, write_fastq(reads), name="reads.fq.gz")   # plain content, gzip-looking name


def test_wrapped_records_with_at_and_plus_quality_lines():
    rng = random.Random(3303)
    reads = []
    for i in range(200):
        h, s, q = rand_read(rng, i)
        # force qualities that put '@' (Q31) and '+' (Q10) at the start of wrapped quality lines
        q = "".join(rng.choice("@+@I5") if j % 7 == 0 else c for j, c in enumerate(q))
        reads.append((h, s, q))
    data = write_fastq(reads, wrap=12, rng=rng, repeat_plus=True) + b"\n\n"
    check(reads, data)


def test_adapter_partial_and_case_insensitive():
    base = "ACGTTGCAAGGCTTACGGATCCAGTTGACCA"   # 31 bases, no adapter inside
    q = "I" * 60
    reads = [
        ("@full", base + ADAPTER + "TTT", q[:len(base) + len(ADAPTER) + 3]),
        ("@end3", base + ADAPTER[:3], q[:len(base) + 3]),
        ("@end2", base + ADAPTER[:2], q[:len(base) + 2]),      # 2 bases: too short to count
        ("@end12", base + ADAPTER[:12], q[:len(base) + 12]),
        ("@mid_partial", base[:10] + ADAPTER[:6] + base[10:], q[:len(base) + 6]),  # partial not at end: kept
        ("@none", base, q[:len(base)]),
    ]
    data = write_fastq(reads)
    check(reads, data, "--min-length", "5", adapter=ADAPTER.lower(), L=5)
    recs, st = run(data, "--min-length", "5", adapter=ADAPTER.lower())
    got = {h: s for h, s, _ in recs}
    assert got["@end3"] == base and got["@end2"] == base + ADAPTER[:2]
    assert got["@mid_partial"] == base[:10] + ADAPTER[:6] + base[10:]
    assert st["adapter_trimmed"] == 3


def test_quality_trim_is_maximum_suffix_not_running_stop():
    # a low-quality tail interrupted by a high-quality island: stopping at the first negative running sum,
    # or trimming only while q < Q, keeps bases the maximum-suffix rule removes
    Q = lambda qs: "".join(chr(33 + x) for x in qs)
    reads = [
        ("@island", "A" * 30 + "C" * 10, Q([38] * 30 + [5, 5, 5, 5, 35, 35, 5, 5, 5, 25])),
        ("@tie", "G" * 30, Q([30] * 26 + [10, 30, 20, 20])),
        ("@allgood", "T" * 25, Q([30] * 25)),
        ("@dip", "A" * 28, Q([30] * 20 + [2, 2, 40, 40, 40, 40, 40, 2])),
    ]
    check(reads, write_fastq(reads), "--min-length", "1", L=1)
    rng = random.Random(4404)
    reads = [rand_read(rng, i) for i in range(400)]
    check(reads, write_fastq(reads), "--quality", "28", Q=28)


def test_filters_and_options():
    rng = random.Random(5505)
    reads = [rand_read(rng, i, nfrac=0.12) for i in range(400)]
    data = write_fastq(reads)
    check(reads, data)
    check(reads, data, "--quality", "15", "--min-length", "35", "--max-n", "0.05", Q=15, L=35, F=0.05)
    _, st = run(data, "--min-length", "35", "--max-n", "0.05")
    assert st["too_short"] > 0 and st["too_many_n"] > 0


def test_other_adapter_and_exact_n_fraction():
    # 20 bases with exactly 2 N = 0.1: kept at F=0.1; 3 N: dropped
    reads = [("@n2", "ACGTNACGTAACGTNACGTA", "I" * 20), ("@n3", "ACGTNACGTANCGTNACGTA", "I" * 20)]
    rng = random.Random(6606)
    ad = "CTGTCTCTTATACACATCT"
    reads += [rand_read(rng, i, adapter=ad) for i in range(150)]
    recs, st = run(write_fastq(reads), adapter=ad)
    names = [h for h, _, _ in recs]
    assert "@n2" in names and "@n3" not in names
    check(reads, write_fastq(reads), adapter=ad)


def test_empty_input():
    recs, st = run(b"")
    assert recs == []
    assert st == dict(reads_in=0, reads_out=0, adapter_trimmed=0, too_short=0, too_many_n=0, bases_in=0, bases_out=0)
