import gzip
import math
import os
import random
import subprocess
import tempfile
import struct
import zlib

PROG = "/app/vcfstats.py"


# ---------- reference ----------
def hwe_p(N, nA, h):
    nA = min(nA, 2 * N - nA)

    def logp(k):
        nAA = (nA - k) // 2
        nBB = N - k - nAA
        lf = math.lgamma
        return (lf(N + 1) - lf(nAA + 1) - lf(k + 1) - lf(nBB + 1) + k * math.log(2)
                + lf(nA + 1) + lf(2 * N - nA + 1) - lf(2 * N + 1))

    ks = [k for k in range(nA % 2, nA + 1, 2) if N - k - (nA - k) // 2 >= 0]
    ps = {k: math.exp(logp(k)) for k in ks}
    obs = ps[h]
    return min(1.0, math.fsum(p for p in ps.values() if p <= obs * (1 + 1e-9)))


def expected(sites, pass_only=False):
    rows = []
    for s in sites:
        if pass_only and s["filter"] not in ("PASS", "."):
            continue
        nalt = len(s["alts"])
        an, ac = 0, [0] * nalt
        homr = het = homa = 0
        for g in s["gts"]:
            if g is None:
                continue
            called = [a for a in g if a is not None]
            an += len(called)
            for a in called:
                if a:
                    ac[a - 1] += 1
            if len(g) == 2 and len(called) == 2 and nalt == 1:
                if g[0] == g[1] == 0:
                    homr += 1
                elif g[0] == g[1]:
                    homa += 1
                else:
                    het += 1
        N = homr + het + homa
        p = hwe_p(N, 2 * homa + het, het) if nalt == 1 and N else None
        rows.append((s["chrom"], str(s["pos"]), an, ac if nalt else None,
                     ([c / an for c in ac] if an else ["NA"] * nalt) if nalt else None, p))
    return rows


# ---------- generator ----------
def gt_text(rng, g):
    if g is None:
        return rng.choice([".", "./.", ".|."])
    sep = rng.choice("/|")
    return sep.join("." if a is None else str(a) for a in g)


def random_site(rng, nsamp, chrom, pos):
    nalt = rng.choice([1, 1, 1, 1, 2, 3, 0])
    bases = "ACGT"
    ref = rng.choice(bases)
    alts = rng.sample([b for b in bases if b != ref], nalt) if nalt else []
    if nalt and rng.random() < 0.2:
        alts[0] = ref + "".join(rng.choice(bases) for _ in range(rng.randint(1, 4)))
    q = rng.uniform(0.01, 0.6)
    # sometimes far from equilibrium
    mode = rng.choice(["hwe", "hwe", "het_excess", "het_deficit"])
    gts = []
    for _ in range(nsamp):
        r = rng.random()
        if r < 0.06:
            gts.append(None)
            continue
        if r < 0.09:
            gts.append([rng.randint(0, nalt)])                   # haploid call
            continue
        if r < 0.11:
            gts.append([None, rng.randint(0, nalt)])             # half-missing
            continue
        if r < 0.12:
            gts.append([rng.randint(0, nalt) for _ in range(3)])  # triploid
            continue
        pick = lambda: (0 if rng.random() > q else rng.randint(1, max(1, nalt))) if nalt else 0
        a, b = pick(), pick()
        if mode == "het_excess" and nalt and rng.random() < 0.5:
            a, b = 0, 1
        if mode == "het_deficit" and rng.random() < 0.5:
            b = a
        gts.append([a, b])
    return {"chrom": chrom, "pos": pos, "ref": ref, "alts": alts, "gts": gts,
            "filter": rng.choice(["PASS", "PASS", ".", "LowQual", "q10;DP5"])}


def vcf_text(rng, sites, nsamp):
    out = ["##fileformat=VCFv4.2", '##FILTER=<ID=LowQual,Description="low">',
           '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
           "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\t" + "\t".join(f"S{i}" for i in range(nsamp))]
    for s in sites:
        layout = rng.choice([["GT"], ["GT", "DP"], ["DP", "GT", "GQ"], ["GQ", "DP", "GT"]])
        cols = []
        for g in s["gts"]:
            vals = {"GT": gt_text(rng, g), "DP": str(rng.randint(0, 60)), "GQ": str(rng.randint(0, 99))}
            fields = [vals[k] for k in layout]
            if g is None and layout[-1] == "GT" and rng.random() < 0.5:
                fields = fields[:-1] or ["."]                    # GT dropped as a missing trailing field
            cols.append(":".join(fields))
        out.append("\t".join([s["chrom"], str(s["pos"]), rng.choice([".", f"rs{rng.randint(1, 10**7)}"]), s["ref"],
                              ",".join(s["alts"]) or ".", rng.choice([".", "50", "99.5"]), s["filter"],
                              rng.choice([".", "DP=100", "AC=1;AN=2"]), ":".join(layout)] + cols))
    return "\n".join(out) + "\n"


def bgzf(data):
    out, i = [], 0
    while i < len(data) or not out:
        chunk = data[i:i + 30000]
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        cd = c.compress(chunk) + c.flush()
        out.append(b"\x1f\x8b\x08\x04\0\0\0\0\0\xff\x06\0BC\x02\0" + struct.pack("<H", len(cd) + 25) + cd
                   + struct.pack("<II", zlib.crc32(chunk) & 0xFFFFFFFF, len(chunk)))
        i += 30000
    return b"".join(out) + bytes.fromhex("1f8b08040000000000ff0600424302001b0003000000000000000000")


def run(data, *opts, name="in.vcf"):
    d = tempfile.mkdtemp()
    p = os.path.join(d, name)
    with open(p, "wb") as fh:
        fh.write(data)
    return subprocess.run(["python3", PROG, p, *opts], capture_output=True, text=True, timeout=300)


def close(g, w):
    return abs(float(g) - w) <= 1e-9 * (1 + abs(w))


def check(sites, text_bytes, *opts, pass_only=False, name="in.vcf"):
    p = run(text_bytes, *opts, name=name)
    assert p.returncode == 0, p.stderr[-1000:]
    got = [l.split("\t") for l in p.stdout.splitlines() if l.strip()]
    want = expected(sites, pass_only)
    assert len(got) == len(want), f"{len(got)} lines, expected {len(want)}"
    for g, (chrom, pos, an, ac, af, hp) in zip(got, want):
        where = f"{chrom}:{pos}"
        assert len(g) == 6, f"{where}: {g}"
        assert g[:3] == [chrom, pos, str(an)], f"{where}: {g[:3]}, expected AN {an}"
        if ac is None:
            assert g[3] == "." and g[4] == ".", f"{where}: AC/AF {g[3:5]}, expected '.'"
        else:
            assert g[3] == ",".join(map(str, ac)), f"{where}: AC {g[3]}, expected {ac}"
            gaf = g[4].split(",")
            assert len(gaf) == len(af), f"{where}: AF {g[4]}"
            for x, y in zip(gaf, af):
                assert (x == y == "NA") or (y != "NA" and x != "NA" and close(x, y)), f"{where}: AF {g[4]}, expected {af}"
        if hp is None:
            assert g[5] == "NA", f"{where}: HWE_P {g[5]}, expected NA"
        else:
            assert g[5] != "NA" and close(g[5], hp), f"{where}: HWE_P {g[5]}, expected {hp}"


def make(seed, nsites, nsamp):
    rng = random.Random(seed)
    sites, pos = [], 0
    for i in range(nsites):
        pos += rng.randint(1, 5000)
        sites.append(random_site(rng, nsamp, rng.choice(["1", "2", "chrX"]) if i % 7 == 0 else "1", pos))
    return rng, sites


# ---------- tests ----------
def test_plain_vcf():
    rng, sites = make(1, 60, 25)
    check(sites, vcf_text(rng, sites, 25).encode())


def test_hwe_on_large_cohorts():
    rng, sites = make(2, 40, 400)
    check(sites, vcf_text(rng, sites, 400).encode())


def test_pass_only():
    rng, sites = make(3, 50, 30)
    check(sites, vcf_text(rng, sites, 30).encode(), "--pass-only", pass_only=True)


def test_bgzf_input_detected_by_magic():
    rng, sites = make(4, 80, 60)
    data = vcf_text(rng, sites, 60).encode()
    check(sites, bgzf(data), name="calls.vcf")
    check(sites, gzip.compress(data), name="calls.txt")


def test_known_hwe_values():
    # 100 diploid samples: 57 AA, 14 AB, 29 BB is strongly out of equilibrium
    rng = random.Random(5)
    gts = [[0, 0]] * 57 + [[0, 1]] * 14 + [[1, 1]] * 29
    site = {"chrom": "7", "pos": 117559590, "ref": "C", "alts": ["T"], "gts": gts, "filter": "PASS"}
    mono_gts = [[0, 0]] * 10 + [None, [1]] + [[0, 0]] * 88
    mono = {"chrom": "7", "pos": 117559600, "ref": "A", "alts": ["G"], "gts": mono_gts, "filter": "."}
    p = run(vcf_text(rng, [site, mono], 100).encode())
    assert p.returncode == 0, p.stderr[-500:]
    rows = [l.split("\t") for l in p.stdout.splitlines()]
    want = hwe_p(100, 72, 14)
    assert want < 1e-10 and close(rows[0][5], want), f"HWE_P {rows[0][5]}, expected {want}"
    assert close(rows[1][5], 1.0), f"a monomorphic site has HWE_P 1, got {rows[1][5]}"


def test_not_vcf():
    p = run(b"CHROM\tPOS\n1\t100\n")
    assert p.returncode == 2 and p.stderr.strip() and not p.stdout.strip()
