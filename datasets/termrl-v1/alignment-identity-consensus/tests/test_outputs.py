import math
import os
import random
import subprocess
import tempfile
from collections import Counter

PROG = "/app/alnstats.py"
AA = "ACDEFGHIKLMNPQRSTVWY"


# ---------- random alignments ----------
def random_alignment(rng, n, L, alphabet=AA):
    anc = [rng.choice(alphabet) for _ in range(L)]
    seqs = []
    for k in range(n):
        s = []
        for c in range(L):
            r = rng.random()
            if r < 0.12:
                s.append(rng.choice("-" * 5 + "."))
            elif r < 0.35:
                s.append(rng.choice(alphabet))
            else:
                s.append(anc[c])
        seqs.append((f"seq_{k}|{rng.randint(100, 999)}", "".join(s)))
    # a column of gaps only, and a column gapped in exactly half of the sequences
    if L > 5:
        c = rng.randrange(L)
        seqs = [(nm, s[:c] + "-" + s[c + 1:]) for nm, s in seqs]
    return seqs


def cased(rng, seg):
    return seg.lower() if rng.random() < 0.2 else seg


def clustal(rng, aln, width):
    out = [rng.choice(["CLUSTAL W (1.83) multiple sequence alignment", "CLUSTAL O(1.2.4) multiple sequence alignment",
                       "CLUSTALW"]), "", ""]
    L = len(aln[0][1])
    pad = max(len(n) for n, _ in aln) + rng.randint(1, 6)
    counts = {n: 0 for n, _ in aln}
    counts_on = rng.random() < 0.6
    for start in range(0, L, width):
        for name, s in aln:
            seg = s[start:start + width]
            counts[name] += sum(ch not in "-." for ch in seg)
            out.append(name.ljust(pad) + cased(rng, seg) + (f" {counts[name]}" if counts_on else ""))
        cons = "".join(rng.choice(" *:.") for _ in range(len(s[start:start + width])))
        if rng.random() < 0.8:
            out.append(" " * pad + cons.rstrip())
        out.append("")
        if rng.random() < 0.3:
            out.append("")
    return "\n".join(out) + "\n"


def fasta(rng, aln):
    out = []
    for name, s in aln:
        out.append(f">{name} some description")
        w = rng.choice([60, 70, 1000])
        out += [cased(rng, s[i:i + w]) for i in range(0, len(s), w)]
    return "\n".join(out) + "\n"


# ---------- reference ----------
def expected(aln):
    n, L = len(aln), len(aln[0][1])
    seqs = [s.upper() for _, s in aln]
    cons, ents = "", []
    for c in range(L):
        col = [s[c] for s in seqs]
        res = Counter(x for x in col if x.isalpha())
        if 2 * (n - sum(res.values())) > n or not res:
            cons += "-"
        else:
            cons += sorted(res.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        if res:
            t = sum(res.values())
            ents.append(-sum(k / t * math.log2(k / t) for k in res.values()))
    pids = []
    for i in range(n):
        for j in range(i + 1, n):
            pairs = [(a, b) for a, b in zip(seqs[i], seqs[j]) if a.isalpha() and b.isalpha()]
            pids.append((aln[i][0], aln[j][0], None if not pairs else 100 * sum(a == b for a, b in pairs) / len(pairs)))
    return n, L, cons, sum(ents) / len(ents), pids


def run(text):
    d = tempfile.mkdtemp()
    p = os.path.join(d, "a.aln")
    with open(p, "w") as fh:
        fh.write(text)
    return subprocess.run(["python3", PROG, p], capture_output=True, text=True, timeout=300)


def check(aln, text, what):
    p = run(text)
    assert p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr[-800:]}"
    lines = p.stdout.strip().splitlines()
    n, L, cons, ent, pids = expected(aln)
    assert lines[0] == f"sequences {n}" and lines[1] == f"length {L}", f"{what}: {lines[:2]}"
    assert lines[2] == f"consensus {cons}", f"{what}: {lines[2][:80]}..., expected consensus {cons[:70]}..."
    k, v = lines[3].split()
    assert k == "entropy" and abs(float(v) - ent) <= 1e-9 * (1 + ent), f"{what}: {lines[3]}, expected {ent}"
    assert lines[4] == "identity"
    rows = [l.split("\t") for l in lines[5:]]
    assert len(rows) == len(pids), f"{what}: {len(rows)} identity lines, expected {len(pids)}"
    for r, (a, b, w) in zip(rows, pids):
        assert r[:2] == [a, b], f"{what}: pair {r[:2]}, expected {[a, b]}"
        if w is None:
            assert r[2] == "NA", f"{what}: {a} {b}: {r[2]}, expected NA"
        else:
            assert abs(float(r[2]) - w) <= 1e-9 * (1 + w), f"{what}: {a} {b}: {r[2]}, expected {w}"


# ---------- tests ----------
def test_clustal_blocks():
    rng = random.Random(1)
    for k in range(4):
        aln = random_alignment(rng, rng.randint(3, 9), rng.randint(40, 260))
        check(aln, clustal(rng, aln, rng.choice([50, 60])), f"clustal {k}")


def test_aligned_fasta():
    rng = random.Random(2)
    for k in range(3):
        aln = random_alignment(rng, rng.randint(2, 8), rng.randint(30, 300))
        check(aln, fasta(rng, aln), f"fasta {k}")


def test_same_alignment_both_formats():
    rng = random.Random(3)
    aln = random_alignment(rng, 6, 137, alphabet="ACGT")
    check(aln, clustal(rng, aln, 60), "DNA clustal")
    check(aln, fasta(rng, aln), "DNA fasta")


def test_gappy_pairs_and_ties():
    rng = random.Random(4)
    aln = [("a", "AC--GT-"), ("b", "--TTGA."), ("c", "AG--CT-"), ("d", "TT--GG-")]
    check(aln, clustal(rng, aln, 60), "hand-made")
    aln = [("x", "AAAA----"), ("y", "----CCCC")]
    check(aln, fasta(rng, aln), "no overlap")


def test_errors():
    rng = random.Random(5)
    aln = random_alignment(rng, 3, 50)
    bad = [(aln[0][0], aln[0][1] + "A")] + aln[1:]
    for text, what in ((fasta(rng, bad), "unequal lengths"), ("# STOCKHOLM 1.0\nx ACGT\n//\n", "other format")):
        p = run(text)
        assert p.returncode == 2 and p.stdout.strip() == "" and p.stderr.strip(), f"{what}: exit {p.returncode}"
