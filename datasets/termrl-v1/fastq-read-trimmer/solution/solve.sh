#!/bin/bash
set -euo pipefail
cat > /app/fqtrim.py <<'PY'
import argparse
import gzip
import json
import sys


def records(data):
    lines = data.decode("ascii").splitlines()
    i, n = 0, len(lines)
    while i < n:
        if lines[i] == "":
            i += 1
            continue
        if not lines[i].startswith("@"):
            sys.exit(f"bad FASTQ header at line {i + 1}")
        header = lines[i]
        i += 1
        seq = []
        while i < n and not lines[i].startswith("+"):
            seq.append(lines[i].strip())
            i += 1
        i += 1  # separator
        seq = "".join(seq)
        qual = ""
        while len(qual) < len(seq) and i < n:
            qual += lines[i].strip()
            i += 1
        if len(qual) != len(seq):
            sys.exit(f"record {header}: quality length differs from sequence length")
        yield header, seq, qual


def clip_adapter(seq, adapter):
    la = len(adapter)
    for p in range(len(seq)):
        rest = seq[p:]
        if len(rest) >= la:
            if rest.startswith(adapter):
                return p
        elif len(rest) >= 3 and adapter.startswith(rest):
            return p
    return None


def quality_cut(qual, cutoff):
    best, cut, s = 0, len(qual), 0
    for i in range(len(qual) - 1, -1, -1):
        s += cutoff - (ord(qual[i]) - 33)
        if s > best:
            best, cut = s, i
    return cut


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--adapter", required=True)
    ap.add_argument("--quality", type=int, default=20)
    ap.add_argument("--min-length", type=int, default=20)
    ap.add_argument("--max-n", type=float, default=0.1)
    ap.add_argument("inp")
    ap.add_argument("out")
    a = ap.parse_args()
    adapter = a.adapter.upper()
    raw = open(a.inp, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    st = dict(reads_in=0, reads_out=0, adapter_trimmed=0, too_short=0, too_many_n=0, bases_in=0, bases_out=0)
    with open(a.out, "w") as out:
        for header, seq, qual in records(raw):
            st["reads_in"] += 1
            st["bases_in"] += len(seq)
            p = clip_adapter(seq, adapter)
            if p is not None:
                st["adapter_trimmed"] += 1
                seq, qual = seq[:p], qual[:p]
            c = quality_cut(qual, a.quality)
            seq, qual = seq[:c], qual[:c]
            if len(seq) < a.min_length:
                st["too_short"] += 1
                continue
            if seq.count("N") / len(seq) > a.max_n:
                st["too_many_n"] += 1
                continue
            st["reads_out"] += 1
            st["bases_out"] += len(seq)
            out.write(f"{header}\n{seq}\n+\n{qual}\n")
    print(json.dumps(st))


main()
PY
