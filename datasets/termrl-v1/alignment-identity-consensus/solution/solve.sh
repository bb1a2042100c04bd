#!/bin/bash
set -euo pipefail
cat > /app/alnstats.py <<'PY'
import math
import re
import sys
from collections import Counter

CONS = re.compile(r"^\s+[*:. ]*$")


def fail(msg):
    print(f"alnstats: {msg}", file=sys.stderr)
    sys.exit(2)


def read(path):
    with open(path) as fh:
        lines = fh.read().splitlines()
    nonblank = [l for l in lines if l.strip()]
    if not nonblank:
        fail("empty file")
    seqs = {}
    if nonblank[0].startswith("CLUSTAL"):
        for line in lines[lines.index(nonblank[0]) + 1:]:
            if not line.strip() or line[0].isspace() and CONS.match(line):
                continue
            parts = line.split()
            name, seg = parts[0], parts[1] if len(parts) > 1 else ""
            seqs.setdefault(name, []).append(seg)
    elif nonblank[0].startswith(">"):
        name = None
        for line in lines:
            if line.startswith(">"):
                name = line[1:].split()[0]
                seqs.setdefault(name, [])
            elif line.strip() and name is not None:
                seqs[name].append(line.strip())
    else:
        fail("neither Clustal nor FASTA")
    out = [(n, "".join(p).upper()) for n, p in seqs.items()]
    if len({len(s) for _, s in out}) != 1:
        fail("sequences differ in length")
    return out


def main():
    if len(sys.argv) != 2:
        fail("usage: alnstats.py ALIGNMENT")
    aln = read(sys.argv[1])
    n, L = len(aln), len(aln[0][1])
    gap = set("-.")
    cons, ents = [], []
    for c in range(L):
        col = [s[c] for _, s in aln]
        res = Counter(x for x in col if x not in gap)
        ngap = n - sum(res.values())
        if ngap * 2 > n or not res:
            cons.append("-")
        else:
            best = max(res.values())
            cons.append(min(r for r, k in res.items() if k == best))
        if res:
            tot = sum(res.values())
            ents.append(-sum(k / tot * math.log2(k / tot) for k in res.values()))
    out = [f"sequences {n}", f"length {L}", f"consensus {''.join(cons)}",
           f"entropy {(math.fsum(ents) / len(ents)) if ents else 0.0!r}", "identity"]
    for i in range(n):
        for j in range(i + 1, n):
            a, b = aln[i][1], aln[j][1]
            both = [(x, y) for x, y in zip(a, b) if x not in gap and y not in gap]
            pid = "NA" if not both else repr(100.0 * sum(x == y for x, y in both) / len(both))
            out.append(f"{aln[i][0]}\t{aln[j][0]}\t{pid}")
    print("\n".join(out))


main()
PY
