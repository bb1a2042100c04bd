#!/bin/bash
set -euo pipefail
# Mistake: lets soft clips advance the reference position as well as the read.
cat > /app/pileup.py <<'PY'
import argparse
import gzip
import struct
import sys
import zlib

CODES = "=ACMGRSVTWYHKDBN"
COL = {"A": 0, "C": 1, "G": 2, "T": 3}


def fail(msg):
    print(f"pileup: {msg}", file=sys.stderr)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bam")
    ap.add_argument("--min-mapq", type=int, default=0)
    ap.add_argument("--min-baseq", type=int, default=0)
    o = ap.parse_args()
    with open(o.bam, "rb") as fh:
        raw = fh.read()
    if raw[:2] != b"\x1f\x8b":
        fail("not a BGZF file")
    try:
        data = gzip.decompress(raw)
    except (OSError, EOFError, zlib.error) as e:
        fail(f"bad BGZF data: {e}")
    if data[:4] != b"BAM\x01":
        fail("not a BAM file")
    p = 4
    (l_text,) = struct.unpack_from("<i", data, p)
    p += 4 + l_text
    (n_ref,) = struct.unpack_from("<i", data, p)
    p += 4
    refs = []
    for _ in range(n_ref):
        (l_name,) = struct.unpack_from("<i", data, p)
        p += 4
        name = data[p:p + l_name].rstrip(b"\0").decode()
        p += l_name + 4
        refs.append(name)
    counts = [dict() for _ in refs]
    while p + 4 <= len(data):
        (block_size,) = struct.unpack_from("<i", data, p)
        rec = data[p + 4:p + 4 + block_size]
        p += 4 + block_size
        ref_id, pos, l_rn, mapq, _bin, n_cig, flag, l_seq = struct.unpack_from("<iiBBHHHi", rec, 0)
        if flag & 0x704 or ref_id < 0 or mapq < o.min_mapq:
            continue
        q = 32 + l_rn
        cigar = struct.unpack_from(f"<{n_cig}I", rec, q)
        q += 4 * n_cig
        seq_b = rec[q:q + (l_seq + 1) // 2]
        q += (l_seq + 1) // 2
        qual = rec[q:q + l_seq]
        noqual = l_seq > 0 and all(b == 0xFF for b in qual)
        cnt = counts[ref_id]
        r, i = pos, 0
        for c in cigar:
            n, op = c >> 4, c & 0xF
            if op in (0, 7, 8):
                for _ in range(n):
                    if noqual or qual[i] >= o.min_baseq:
                        code = (seq_b[i >> 1] >> (4 if i % 2 == 0 else 0)) & 0xF
                        row = cnt.setdefault(r, [0] * 6)
                        row[COL.get(CODES[code], 4)] += 1
                    r += 1
                    i += 1
            elif op == 1:
                i += n
            elif op == 4:
                i += n
                r += n
            elif op == 2:
                for _ in range(n):
                    cnt.setdefault(r, [0] * 6)[5] += 1
                    r += 1
            elif op == 3:
                r += n
    out = []
    for name, cnt in zip(refs, counts):
        for r in sorted(cnt):
            row = cnt[r]
            if any(row):
                out.append("\t".join([name, str(r + 1)] + [str(v) for v in row]))
    if out:
        print("\n".join(out))


main()
PY
