#!/bin/bash
set -euo pipefail
# Mistake: counts missing alleles (.) in AN.
cat > /app/vcfstats.py <<'PY'
import gzip
import re
import sys


def fail(msg):
    print(f"vcfstats: {msg}", file=sys.stderr)
    sys.exit(2)


def hwe_exact(n_het, n_hom1, n_hom2):
    """Wigginton et al. (2005) exact test by recurrence over heterozygote counts."""
    n_hom_r = min(n_hom1, n_hom2)
    n_hom_c = max(n_hom1, n_hom2)
    rare = 2 * n_hom_r + n_het
    n = n_het + n_hom_r + n_hom_c
    if n == 0:
        return None
    probs = [0.0] * (rare + 1)
    mid = rare * (2 * n - rare) // (2 * n)
    if (rare & 1) ^ (mid & 1):
        mid += 1
    probs[mid] = 1.0
    total = 1.0
    cur_hom_r = (rare - mid) // 2
    cur_hom_c = n - mid - cur_hom_r
    h = mid
    while h > 1:
        probs[h - 2] = probs[h] * h * (h - 1) / (4.0 * (cur_hom_r + 1) * (cur_hom_c + 1))
        total += probs[h - 2]
        cur_hom_r += 1
        cur_hom_c += 1
        h -= 2
    cur_hom_r = (rare - mid) // 2
    cur_hom_c = n - mid - cur_hom_r
    h = mid
    while h <= rare - 2:
        probs[h + 2] = probs[h] * 4.0 * cur_hom_r * cur_hom_c / ((h + 2) * (h + 1))
        total += probs[h + 2]
        cur_hom_r -= 1
        cur_hom_c -= 1
        h += 2
    target = probs[n_het]
    p = sum(pr for pr in probs if pr <= target * (1 + 1e-9)) / total
    return min(1.0, p)


def main():
    args = sys.argv[1:]
    pass_only = "--pass-only" in args
    paths = [a for a in args if a != "--pass-only"]
    if len(paths) != 1:
        fail("usage: vcfstats.py IN.vcf [--pass-only]")
    with open(paths[0], "rb") as fh:
        raw = fh.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    text = raw.decode("utf-8", "replace")
    lines = text.splitlines()
    if not lines or not lines[0].startswith("##fileformat=VCF"):
        fail("not a VCF file")
    out = []
    for line in lines:
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        chrom, pos, alt, filt = f[0], f[1], f[4], f[6]
        if pass_only and filt not in ("PASS", "."):
            continue
        alts = [] if alt == "." else alt.split(",")
        keys = f[8].split(":") if len(f) > 8 else []
        gi = keys.index("GT") if "GT" in keys else None
        an, ac = 0, [0] * len(alts)
        hom_ref = het = hom_alt = 0
        for s in f[9:]:
            vals = s.split(":")
            if gi is None or gi >= len(vals):
                continue
            alleles = re.split(r"[/|]", vals[gi])
            called = [a for a in alleles if a != "."]
            an += len(alleles)
            for a in called:
                k = int(a)
                if k > 0:
                    ac[k - 1] += 1
            if len(alleles) == 2 and len(called) == 2 and len(alts) == 1:
                x, y = int(called[0]), int(called[1])
                if x == y == 0:
                    hom_ref += 1
                elif x == y:
                    hom_alt += 1
                else:
                    het += 1
        if not alts:
            acs = afs = "."
        else:
            acs = ",".join(str(c) for c in ac)
            afs = ",".join(repr(c / an) if an else "NA" for c in ac)
        p = hwe_exact(het, hom_ref, hom_alt) if len(alts) == 1 else None
        out.append("\t".join([chrom, pos, str(an), acs, afs, "NA" if p is None else repr(p)]))
    if out:
        print("\n".join(out))


main()
PY
