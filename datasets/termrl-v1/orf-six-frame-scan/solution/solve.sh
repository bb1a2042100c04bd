#!/bin/bash
set -euo pipefail
cat > /app/orfs.py <<'PY'
import argparse

COMP = str.maketrans("ACGTN", "TGCAN")


def load_code(path="/app/codon_table.tsv"):
    code = {}
    with open(path) as fh:
        for line in fh:
            if line.strip() and not line.startswith("#"):
                c, a = line.split()
                code[c] = a
    return code


def read_fasta(path):
    recs, sid, parts = [], None, []
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            if line.startswith(">"):
                if sid is not None:
                    recs.append((sid, "".join(parts).upper()))
                sid, parts = line[1:].split()[0], []
            else:
                parts.append(line)
    if sid is not None:
        recs.append((sid, "".join(parts).upper()))
    return recs


def scan(s, code, min_aa):
    """ORFs on s as (begin, end_exclusive, protein) in s's own coordinates."""
    out = []
    for f in range(3):
        start = None
        for i in range(f, len(s) - 2, 3):
            c = s[i:i + 3]
            aa = "X" if "N" in c else code[c]
            if aa == "*":
                if start is not None:
                    prot = "".join("X" if "N" in s[k:k + 3] else code[s[k:k + 3]] for k in range(start, i, 3))
                    if len(prot) >= min_aa:
                        out.append((start, i + 3, prot))
                start = None
            elif c == "ATG" and start is None:
                start = i
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fasta")
    ap.add_argument("--min-aa", type=int, default=30)
    a = ap.parse_args()
    code = load_code()
    lines = []
    for sid, s in read_fasta(a.fasta):
        L = len(s)
        rows = []
        for b, e, p in scan(s, code, a.min_aa):
            rows.append((b + 1, e, 0, "+", p))
        rc = s.translate(COMP)[::-1]
        for b, e, p in scan(rc, code, a.min_aa):
            rows.append((L - e + 1, L - b, 1, "-", p))
        rows.sort()
        for st, en, _, strand, p in rows:
            lines.append(f"{sid}\t{strand}\t{st}\t{en}\t{len(p)}\t{p}")
    if lines:
        print("\n".join(lines))


main()
PY
