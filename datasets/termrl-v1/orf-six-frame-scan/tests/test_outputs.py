import os
import random
import subprocess
import tempfile

PROG = "/app/orfs.py"
BASES = "TCAG"
AA = "FFLLSSSSYY**CC*WLLLLPPPPHHQQRRRRIIIMTTTTNNKKSSRRVVVVAAAADDEEGGGG"
CODE = {a + b + c: AA[16 * i + 4 * j + k] for i, a in enumerate(BASES) for j, b in enumerate(BASES)
        for k, c in enumerate(BASES)}
SENSE = [c for c, x in CODE.items() if x != "*" and c != "ATG"]
STOPS = ["TAA", "TAG", "TGA"]


# ---------- independent reference: brute force over every ATG ----------
def revcomp(s):
    return "".join({"A": "T", "C": "G", "G": "C", "T": "A", "N": "N"}[c] for c in reversed(s))


def tr(c):
    return "X" if "N" in c else CODE[c]


def ref_orfs(s, min_aa):
    found = []
    for strand, t in (("+", s), ("-", revcomp(s))):
        L = len(t)
        for i in range(L - 2):
            if t[i:i + 3] != "ATG":
                continue
            # is there an earlier in-frame ATG with no in-frame stop between it and i?
            k, first = i - 3, True
            while k >= 0:
                if tr(t[k:k + 3]) == "*":
                    break
                if t[k:k + 3] == "ATG":
                    first = False
                    break
                k -= 3
            if not first:
                continue
            j = i
            while j + 3 <= L and tr(t[j:j + 3]) != "*":
                j += 3
            if j + 3 > L:
                continue
            prot = "".join(tr(t[m:m + 3]) for m in range(i, j, 3))
            if len(prot) < min_aa:
                continue
            if strand == "+":
                found.append((i + 1, j + 3, strand, prot))
            else:
                found.append((L - (j + 3) + 1, L - i, strand, prot))
    found.sort(key=lambda r: (r[0], r[1], r[2] == "-"))
    return found


# ---------- generator ----------
def random_seq(rng, n, nfrac=0.0, plant=4):
    s = [rng.choice("ACGT") if rng.random() >= nfrac else "N" for _ in range(n)]
    for _ in range(plant):
        k = rng.randint(20, 90)
        orf = "ATG" + "".join(rng.choice(SENSE) for _ in range(k)) + rng.choice(STOPS)
        if rng.random() < 0.3:   # an inner in-frame ATG: must not start a second ORF
            p = 3 * rng.randint(2, k - 2)
            orf = orf[:p] + "ATG" + orf[p + 3:]
        if rng.random() < 0.5:
            orf = revcomp(orf)
        pos = rng.randint(0, max(0, n - len(orf)))
        s[pos:pos + len(orf)] = list(orf)
    return "".join(s)[:max(n, 1)]


def fasta(recs, rng):
    out = []
    for sid, desc, s in recs:
        out.append(f">{sid}{(' ' + desc) if desc else ''}")
        w = rng.choice([50, 60, 61, 80, 1000])
        for i in range(0, len(s), w):
            chunk = s[i:i + w]
            out.append(chunk.lower() if rng.random() < 0.3 else chunk)
            if rng.random() < 0.05:
                out.append("")
    return "\n".join(out) + "\n"


def run(text, *opts):
    d = tempfile.mkdtemp()
    p = os.path.join(d, "in.fasta")
    with open(p, "w") as fh:
        fh.write(text)
    proc = subprocess.run(["python3", PROG, p, *opts], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [l.split("\t") for l in proc.stdout.splitlines() if l.strip()]


def check(recs, rng, min_aa=30, opts=()):
    got = run(fasta(recs, rng), *opts)
    want = [[sid, strand, str(a), str(b), str(len(p)), p] for sid, _, s in recs
            for a, b, strand, p in ref_orfs(s, min_aa)]
    assert want, "generator must plant ORFs"
    assert len(got) == len(want), f"{len(got)} ORFs reported, expected {len(want)}; first expected {want[:2]}"
    for g, w in zip(got, want):
        assert g == w, f"got {g[:5]}, expected {w[:5]}"


def test_forward_and_reverse_default_min():
    rng = random.Random(7)
    recs = [(f"chr{i}", "test contig", random_seq(rng, rng.randint(600, 1500))) for i in range(4)]
    check(recs, rng)


def test_min_aa_option():
    rng = random.Random(8)
    recs = [(f"s{i}", "", random_seq(rng, 900)) for i in range(3)]
    check(recs, rng, min_aa=10, opts=("--min-aa", "10"))
    check(recs, rng, min_aa=60, opts=("--min-aa", "60"))


def test_ambiguous_bases():
    rng = random.Random(9)
    recs = [(f"amb{i}", "with N", random_seq(rng, 1200, nfrac=0.01, plant=6)) for i in range(3)]
    check(recs, rng, min_aa=20, opts=("--min-aa", "20"))


def test_nested_atg_and_unterminated():
    # one frame: ATG ... ATG ... stop gives one ORF from the first ATG; a trailing ATG without a stop gives none
    r10 = random.Random(10)
    body = "".join(r10.choice(SENSE) for _ in range(40))
    s = "CC" + "ATG" + body[:60] + "ATG" + body[60:] + "TAA" + "G" + "ATG" + body + "GA"
    got = run(f">nest\n{s}\n", "--min-aa", "5")
    plus = [g for g in got if g[1] == "+"]
    assert plus[0][2:4] == ["3", str(2 + 3 + 120 + 3 + 3)], plus
    assert len([g for g in plus if int(g[2]) > 3 and int(g[2]) < 131 and (int(g[2]) - 3) % 3 == 0]) == 0, plus
    want = ref_orfs(s, 5)
    assert [[g[1], int(g[2]), int(g[3])] for g in got] == [[w[2], w[0], w[1]] for w in want]


def test_reverse_strand_coordinates():
    rng = random.Random(11)
    orf = "ATG" + "".join(rng.choice(SENSE) for _ in range(35)) + "TGA"
    s = "GGGCC" + revcomp(orf) + "CCGGG"
    got = run(f">rev desc\n{s}\n")
    assert ["rev", "-", "6", str(5 + len(orf)), "36"] in [g[:5] for g in got], got
    check([("rev", "desc", s)], rng, opts=())


def test_many_records_order():
    rng = random.Random(12)
    recs = [(f"r{i:02d}", "x", random_seq(rng, rng.randint(100, 700), plant=2)) for i in range(15)]
    recs.append(("empty_like", "", "ACGTACGT"))
    check(recs, rng, min_aa=15, opts=("--min-aa", "15"))
