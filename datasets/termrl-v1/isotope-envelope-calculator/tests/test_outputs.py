import os
import random
import shutil
import subprocess
from collections import Counter

import pytest

PROG = "/app/isotopes.py"
PROTON = 1.007276466812

# element: [(mass number, exact mass, abundance)] -- the same data as the shipped /app/isotopes.tsv
TABLE_TEXT = """
H 1 1.00782503207 0.999885|H 2 2.0141017778 0.000115|Li 6 6.015122795 0.0759|Li 7 7.01600455 0.9241
B 10 10.0129370 0.199|B 11 11.0093054 0.801|C 12 12.0 0.9893|C 13 13.0033548378 0.0107
N 14 14.0030740048 0.99636|N 15 15.0001088982 0.00364|O 16 15.99491461956 0.99757|O 17 16.99913170 0.00038
O 18 17.9991610 0.00205|F 19 18.99840322 1.0|Na 23 22.9897692809 1.0|Mg 24 23.985041700 0.7899
Mg 25 24.98583692 0.1000|Mg 26 25.982592929 0.1101|Si 28 27.9769265325 0.92223|Si 29 28.976494700 0.04685
Si 30 29.97377017 0.03092|P 31 30.97376163 1.0|S 32 31.97207100 0.9499|S 33 32.97145876 0.0075
S 34 33.96786690 0.0425|S 36 35.96708076 0.0001|Cl 35 34.96885268 0.7576|Cl 37 36.96590259 0.2424
K 39 38.96370668 0.932581|K 40 39.96399848 0.000117|K 41 40.96182576 0.067302|Ca 40 39.96259098 0.96941
Ca 42 41.95861801 0.00647|Ca 43 42.9587666 0.00135|Ca 44 43.9554818 0.02086|Ca 46 45.9536926 0.00004
Ca 48 47.952534 0.00187|Fe 54 53.9396105 0.05845|Fe 56 55.9349375 0.91754|Fe 57 56.9353940 0.02119
Fe 58 57.9332756 0.00282|Cu 63 62.9295975 0.6915|Cu 65 64.9277895 0.3085|Zn 64 63.9291422 0.48268
Zn 66 65.9260334 0.27975|Zn 67 66.9271273 0.04102|Zn 68 67.9248442 0.19024|Zn 70 69.9253193 0.00631
Se 74 73.9224764 0.0089|Se 76 75.9192136 0.0937|Se 77 76.9199140 0.0763|Se 78 77.9173091 0.2377
Se 80 79.9165213 0.4961|Se 82 81.9166994 0.0873|Br 79 78.9183371 0.5069|Br 81 80.9162906 0.4931
Sn 112 111.904818 0.0097|Sn 114 113.902779 0.0066|Sn 115 114.903342 0.0034|Sn 116 115.901741 0.1454
Sn 117 116.902952 0.0768|Sn 118 117.901603 0.2422|Sn 119 118.903308 0.0859|Sn 120 119.9021947 0.3258
Sn 122 121.9034390 0.0463|Sn 124 123.9052739 0.0579|I 127 126.904473 1.0
"""


def table_from(text):
    t = {}
    for item in text.replace("\n", "|").split("|"):
        if item.strip():
            el, a, m, ab = item.split()
            t.setdefault(el, []).append((int(a), float(m), float(ab)))
    return t


TABLE = table_from(TABLE_TEXT)


# ---------- independent reference: atom-by-atom convolution over total mass number ----------
def reference(counts, table, charge=None):
    norm = {el: [(a, m, ab / sum(x[2] for x in isos)) for a, m, ab in isos] for el, isos in table.items()}
    mono = avg = 0.0
    dist = {0: (1.0, 0.0)}            # N -> (probability, probability-weighted mass)
    for key, n in sorted(counts.items(), key=str):
        if isinstance(key, tuple):
            el, a = key
            m = [x[1] for x in norm[el] if x[0] == a][0]
            mono, avg = mono + n * m, avg + n * m
            atom = [(a, m, 1.0)]
        else:
            atom = norm[key]
            mono += n * max(atom, key=lambda x: x[2])[1]
            avg += n * sum(m * ab for _, m, ab in atom)
        for _ in range(n):
            nxt = {}
            for N, (p, pm) in dist.items():
                for a, m, ab in atom:
                    q = p * ab
                    if q < 1e-40:
                        continue
                    o = nxt.get(N + a, (0.0, 0.0))
                    nxt[N + a] = (o[0] + q, o[1] + (pm + p * m) * ab)
            dist = nxt
    conv = (lambda m: m) if charge is None else (lambda m: (m + charge * PROTON) / abs(charge))
    peaks = {N: (conv(pm / p), 100 * p) for N, (p, pm) in dist.items()}
    return conv(mono), conv(avg), peaks


def run(formula, *opts):
    return subprocess.run(["python3", PROG, formula, *opts], capture_output=True, text=True, timeout=300)


def check(formula, counts, *opts, table=TABLE, charge=None, min_percent=0.01):
    p = run(formula, *opts)
    assert p.returncode == 0, f"{formula}: exit {p.returncode}: {p.stderr[-800:]}"
    lines = p.stdout.strip().splitlines()
    mono, avg, peaks = reference(counts, table, charge)
    assert lines[0].split()[0] == "mono" and abs(float(lines[0].split()[1]) - mono) <= 1e-6, \
        f"{formula}: {lines[0]!r}, expected mono {mono!r}"
    assert lines[1].split()[0] == "average" and abs(float(lines[1].split()[1]) - avg) <= 1e-6, \
        f"{formula}: {lines[1]!r}, expected average {avg!r}"
    got = {}
    order = []
    for line in lines[2:]:
        N, m, pc = line.split()
        got[int(N)] = (float(m), float(pc))
        order.append(int(N))
    assert order == sorted(order), f"{formula}: peaks not in increasing N"
    tol = lambda v: 1e-6 * (1 + v)
    for N, (m, pc) in peaks.items():
        if pc >= min_percent + tol(min_percent):
            assert N in got, f"{formula}: peak N={N} ({pc:.6g} %) missing"
    for N, (gm, gp) in got.items():
        assert N in peaks and peaks[N][1] >= min_percent - tol(min_percent), f"{formula}: unexpected peak N={N}"
        wm, wp = peaks[N]
        assert abs(gp - wp) <= tol(wp), f"{formula}: N={N} percent {gp}, expected {wp}"
        assert abs(gm - wm) <= 1e-6, f"{formula}: N={N} mass {gm}, expected {wm}"
    return got


# ---------- formula generator: text and atom counts built together ----------
ELEMENTS = sorted(TABLE)


def gen_seq(rng, depth, c, mult):
    parts = []
    for _ in range(rng.randint(1, 3)):
        r = rng.random()
        if depth > 0 and r < 0.3:
            inner = Counter()
            txt = gen_seq(rng, depth - 1, inner, 1)
            n = rng.choice([None, 2, 3, 4, 12])
            k = 1 if n is None else n
            for key, v in inner.items():
                c[key] += v * k * mult
            o, cl = rng.choice(["()", "[]"])
            parts.append(f"{o}{txt}{cl}{'' if n is None else n}")
        elif r < 0.4:
            el = rng.choice(["C", "N", "O", "H", "S", "Cl", "Br"])
            a = rng.choice([x[0] for x in TABLE[el]])
            n = rng.choice([None, 1, 2, 5])
            c[(el, a)] += (1 if n is None else n) * mult
            parts.append(f"[{a}{el}]{'' if n is None else n}")
        else:
            el = rng.choice(ELEMENTS)
            n = rng.choice([None, None, 1, 2, 3, 7, 10, 16])
            c[el] += (1 if n is None else n) * mult
            parts.append(f"{el}{'' if n is None else n}")
    return "".join(parts)


def gen_formula(rng):
    c = Counter()
    texts = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        m = rng.choice([None, None, 2, 5])
        texts.append(("" if m is None else str(m)) + gen_seq(rng, 2, c, 1 if m is None else m))
    return ".".join(texts), c


# ---------- tests ----------
def test_small_molecules():
    cases = [("C6H12O6", {"C": 6, "H": 12, "O": 6}), ("C8H10N4O2", {"C": 8, "H": 10, "N": 4, "O": 2}),
             ("CH3COOH", {"C": 2, "H": 4, "O": 2}), ("Ca(OH)2", {"Ca": 1, "O": 2, "H": 2}),
             ("SnCl4", {"Sn": 1, "Cl": 4}), ("Se8", {"Se": 8}), ("C6H5Br", {"C": 6, "H": 5, "Br": 1}),
             ("LiBF4", {"Li": 1, "B": 1, "F": 4}), ("FeS2", {"Fe": 1, "S": 2}), ("ZnCl2", {"Zn": 1, "Cl": 2})]
    for f, c in cases:
        check(f, Counter(c))


def test_groups_and_hydrates():
    cases = [("K4[Fe(CN)6]", {"K": 4, "Fe": 1, "C": 6, "N": 6}), ("CuSO4.5H2O", {"Cu": 1, "S": 1, "O": 9, "H": 10}),
             ("Mg3(PO4)2.8H2O", {"Mg": 3, "P": 2, "O": 16, "H": 16}),
             ("[Sn(CH3)2]2Cl2.2NaCl", {"Sn": 2, "C": 4, "H": 12, "Cl": 4, "Na": 2}),
             ("((CH2)3(Si(CH3)2O)2)4", {"C": 28, "H": 72, "Si": 8, "O": 8})]
    for f, c in cases:
        check(f, Counter(c))
    rng = random.Random(31)
    for _ in range(25):
        f, c = gen_formula(rng)
        check(f, c)


def test_isotope_labels():
    cases = [("[13C]6H12O6", {("C", 13): 6, "H": 12, "O": 6}),
             ("C4[13C]2H12O6", {"C": 4, ("C", 13): 2, "H": 12, "O": 6}),
             ("C2[2H]6O", {"C": 2, ("H", 2): 6, "O": 1}), ("[15N]H4Cl", {("N", 15): 1, "H": 4, "Cl": 1}),
             ("(C[13C]H2)3[37Cl]", {"C": 3, ("C", 13): 3, "H": 6, ("Cl", 37): 1}),
             ("[Fe(C5H5)2]", {"Fe": 1, "C": 10, "H": 10})]
    for f, c in cases:
        check(f, Counter(c))


def test_charge_states():
    rng = random.Random(41)
    for z in (1, 2, 3, -1, -2):
        f, c = gen_formula(rng)
        check(f, c, "--charge", str(z), charge=z)
    check("C6H12O6", Counter({"C": 6, "H": 12, "O": 6}), "--charge", "-1", charge=-1)


def test_min_percent_and_large_molecules():
    rng = random.Random(51)
    check("C254H377N65O75S6", Counter({"C": 254, "H": 377, "N": 65, "O": 75, "S": 6}),
          "--min-percent", "0.0001", min_percent=0.0001)
    for _ in range(3):
        c = Counter({"C": rng.randint(1500, 3000), "H": rng.randint(2500, 4800), "N": rng.randint(400, 800),
                     "O": rng.randint(400, 900), "S": rng.randint(5, 40)})
        f = "".join(f"{el}{c[el]}" for el in ("C", "H", "N", "O", "S"))
        mp = rng.choice([0.01, 0.5, 2.0])
        got = check(f, c, "--min-percent", repr(mp), min_percent=mp)
        assert len(got) >= 10
    check("Sn30Se40Br60", Counter({"Sn": 30, "Se": 40, "Br": 60}))


@pytest.fixture
def custom_table():
    shutil.copy("/app/isotopes.tsv", "/tmp/isotopes.tsv.orig")
    yield
    shutil.copy("/tmp/isotopes.tsv.orig", "/app/isotopes.tsv")


def test_table_read_at_run_time(custom_table):
    text = ("C 12 12.0 98.93|C 13 13.0033548378 1.07|H 1 1.00782503207 99.9885|H 2 2.0141017778 0.0115\n"
            "Xq 50 49.95 3|Xq 51 50.9601 1|Xq 53 52.9377 0.5|Zz 7 7.016 1|O 16 15.99491461956 0.99757\n"
            "O 18 17.9991610 0.00205|Qa 101 100.9 0.2|Qa 103 102.91 0.7")
    table = table_from(text)
    with open("/app/isotopes.tsv", "w") as fh:
        fh.write("# a test table with percentages and unnormalised abundances\n")
        for el, isos in table.items():
            for a, m, ab in isos:
                fh.write(f"{el}\t{a}\t{m!r}\t{ab!r}\n")
    check("XqC2H5", Counter({"Xq": 1, "C": 2, "H": 5}), table=table)
    check("Xq3(ZzO2)2[18O]", Counter({"Xq": 3, "Zz": 2, "O": 4, ("O", 18): 1}), table=table)
    check("Qa2Xq.3H2O", Counter({"Qa": 2, "Xq": 1, "H": 6, "O": 3}), "--charge", "2", table=table, charge=2)
    p = run("NaCl")
    assert p.returncode == 2, "elements missing from the replaced table must be unknown"


def test_errors():
    ok = run("C6H12O6")
    assert ok.returncode == 0 and ok.stdout.strip(), "a valid formula must work before the error cases count"
    for f, opts in (("C6H12Q2", ()), ("Ca(OH2", ()), ("Ca(OH)2)", ()), ("[14C]H4", ()), ("", ()), ("CuSO4.", ()),
                    ("C6 H12", ()), ("c6h12", ()), ("C6H12O6", ("--charge", "0")), ("K4[Fe(CN)6", ())):
        p = run(f, *opts)
        assert p.returncode == 2, f"{f!r} {opts}: exit {p.returncode}, expected 2"
        assert p.stdout.strip() == "" and p.stderr.strip(), f"{f!r}: message on stderr only"
