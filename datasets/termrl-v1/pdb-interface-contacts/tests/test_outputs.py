import json
import math
import os
import random
import subprocess
import tempfile

PROG = "/app/pdbgeo.py"
MASS = {"H": 1.008, "C": 12.011, "N": 14.007, "O": 15.999, "S": 32.06, "P": 30.974,
        "MG": 24.305, "CA": 40.078, "ZN": 65.38, "FE": 55.845}
RESN = ["ALA", "GLY", "SER", "CYS", "LEU", "LYS", "ASP", "MET", "THR", "PHE"]


# ---------- generator ----------
def atom_line(rec, serial, name, alt, resn, chain, resseq, icode, xyz, occ, elem, short=False, lower=False):
    nm = name if len(name) == 4 else " " + name.ljust(3)
    line = (f"{rec:<6}{serial % 100000:>5} {nm}{alt}{resn:>3} {chain}{resseq:>4}{icode}   "
            f"{xyz[0]:8.3f}{xyz[1]:8.3f}{xyz[2]:8.3f}{occ:6.2f}{rng_b(serial):6.2f}")
    if short:
        return line
    e = elem.lower() if lower else elem
    return line + " " * 10 + f"{e:>2}"


def rng_b(serial):
    return 10 + (serial * 37 % 400) / 10


def make_structure(seed, chains="AB", nres=14, offset=(0.0, 0.0, 0.0), models=False, extras=True):
    rng = random.Random(seed)
    recs = []   # (rec, name, alt, resn, chain, resseq, icode, xyz, occ, elem)
    centers = {}
    for ci, ch in enumerate(chains):
        cx = (ci * 7.5, rng.uniform(-1, 1), rng.uniform(-1, 1))
        centers[ch] = cx
        resseq = rng.randint(-3, 40)
        icode = " "
        for r in range(nres):
            if r and rng.random() < 0.12 and icode != "B":
                icode = "A" if icode == " " else "B"     # insertion after the previous residue
            else:
                resseq += 1 if rng.random() < 0.85 else rng.randint(2, 5)
                icode = " "
            resn = rng.choice(RESN)
            base = [cx[0] + rng.uniform(-4, 4), cx[1] + (r - nres / 2) * 1.9, cx[2] + rng.uniform(-4, 4)]
            names = [("N", "N"), ("CA", "C"), ("C", "C"), ("O", "O"), ("CB", "C")]
            if resn == "CYS":
                names.append(("SG", "S"))
            if rng.random() < 0.4:
                names.append(("H", "H"))
            for nm, el in names:
                xyz = [base[k] + rng.uniform(-1.2, 1.2) for k in range(3)]
                if extras and rng.random() < 0.12 and nm != "H":
                    occ_a = rng.choice([0.5, 0.6, 0.3, 0.4])
                    xyz_b = [v + rng.uniform(-1.5, 1.5) for v in xyz]
                    recs.append(("ATOM", nm, "A", resn, ch, resseq, icode, xyz, occ_a, el))
                    recs.append(("ATOM", nm, "B", resn, ch, resseq, icode, xyz_b, round(1 - occ_a, 2), el))
                else:
                    recs.append(("ATOM", nm, " ", resn, ch, resseq, icode, xyz, 1.0, el))
        if extras:
            for _ in range(3):
                xyz = [cx[0] + rng.uniform(-6, 6), rng.uniform(-12, 12), rng.uniform(-6, 6)]
                recs.append(("HETATM", "O", " ", "HOH", ch, rng.randint(500, 600), " ", xyz, 1.0, "O"))
            xyz = [cx[0] + rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(-3, 3)]
            ion = rng.choice([("CA", "CA"), ("ZN", "ZN"), ("MG", "MG")])
            recs.append(("HETATM", ion[0], " ", ion[0], ch, 900 + ci, " ", xyz, 1.0, ion[1]))
            ligseq = 950 + ci
            for nm, el in [("P", "P"), ("O1P", "O"), ("O2P", "O"), ("C1", "C"), ("FE", "FE")]:
                xyz = [cx[0] + rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-5, 5)]
                recs.append(("HETATM", nm, " ", "LIG", ch, ligseq, " ", xyz, 1.0, el))
    recs = [(r[0], r[1], r[2], r[3], r[4], r[5], r[6], [r[7][k] + offset[k] for k in range(3)], r[8], r[9])
            for r in recs]
    lines = ["HEADER    GENERATED STRUCTURE", "REMARK   1 TEST"]
    if models:
        lines.append("MODEL        1")
    for i, r in enumerate(recs):
        lines.append(atom_line(r[0], i + 1, r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9],
                               short=extras and len(r[9]) == 1 and r[1][0] == r[9] and rng.random() < 0.2, lower=extras and rng.random() < 0.1))
        if extras and r[4] != chains[-1] and i + 1 < len(recs) and recs[i + 1][4] != r[4]:
            lines.append(f"TER   {i + 2:>5}      {r[3]:>3} {r[4]}{r[5]:>4}")
    if models:
        lines.append("ENDMDL")
        lines.append("MODEL        2")
        for i, r in enumerate(recs):
            xyz = [v + 3.0 for v in r[7]]
            lines.append(atom_line(r[0], i + 1, r[1], r[2], r[3], r[4], r[5], r[6], xyz, r[8], r[9]))
        lines.append("ENDMDL")
    lines.append("END")
    return "\n".join(lines) + "\n"


# ---------- independent reference ----------
def reference(text, cutoff=4.0):
    atoms = {}
    for line in text.splitlines():
        if line.startswith("ENDMDL"):
            break
        if not (line.startswith("ATOM  ") or line.startswith("HETATM")):
            continue
        resn = line[17:20].strip()
        if resn == "HOH":
            continue
        name = line[12:16].strip()
        key = (line[21], int(line[22:26]), line[26].strip(), name)
        occ = float(line[54:60])
        elem = line[76:78].strip().upper() if len(line) > 76 else ""
        if not elem:
            elem = name[0].upper()
        a = dict(rec=line[:6].strip(), xyz=(float(line[30:38]), float(line[38:46]), float(line[46:54])),
                 occ=occ, elem=elem, name=name)
        if key not in atoms or occ > atoms[key]["occ"]:
            atoms[key] = a
    chains = {}
    for (ch, seq, ic, nm), a in atoms.items():
        chains.setdefault(ch, []).append(((seq, ic), a))
    out = {"chains": {}, "contacts": []}
    for ch, lst in chains.items():
        m = sum(MASS[a["elem"]] for _, a in lst)
        com = [sum(MASS[a["elem"]] * a["xyz"][k] for _, a in lst) / m for k in range(3)]
        cas = [a["xyz"] for _, a in lst if a["rec"] == "ATOM" and a["name"] == "CA"]
        rg = None
        if cas:
            c = [sum(p[k] for p in cas) / len(cas) for k in range(3)]
            rg = math.sqrt(sum(sum((p[k] - c[k]) ** 2 for k in range(3)) for p in cas) / len(cas))
        out["chains"][ch] = {"atoms": len(lst), "residues": len({r for r, _ in lst}), "center_of_mass": com,
                             "ca_rg": rg}
    best = {}
    names = sorted(chains)
    for i, c1 in enumerate(names):
        for c2 in names[i + 1:]:
            for r1, a1 in chains[c1]:
                if a1["elem"] == "H":
                    continue
                for r2, a2 in chains[c2]:
                    if a2["elem"] == "H":
                        continue
                    d = math.dist(a1["xyz"], a2["xyz"])
                    k = (c1, r1, c2, r2)
                    if d < cutoff and d < best.get(k, 1e9):
                        best[k] = d
    for (c1, r1, c2, r2) in sorted(best):
        out["contacts"].append([c1, f"{r1[0]}{r1[1]}", c2, f"{r2[0]}{r2[1]}", best[(c1, r1, c2, r2)]])
    return out


def run(text, *opts):
    d = tempfile.mkdtemp()
    p = os.path.join(d, "s.pdb")
    with open(p, "w") as fh:
        fh.write(text)
    proc = subprocess.run(["python3", PROG, p, *opts], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def compare(got, want):
    assert sorted(got["chains"]) == sorted(want["chains"]), f"chains {sorted(got['chains'])}"
    for ch, w in want["chains"].items():
        g = got["chains"][ch]
        assert g["atoms"] == w["atoms"], f"chain {ch} atoms {g['atoms']} != {w['atoms']}"
        assert g["residues"] == w["residues"], f"chain {ch} residues {g['residues']} != {w['residues']}"
        for k in range(3):
            assert abs(g["center_of_mass"][k] - w["center_of_mass"][k]) < 1e-4, f"chain {ch} center_of_mass"
        if w["ca_rg"] is None:
            assert g["ca_rg"] is None, f"chain {ch} has no alpha carbons: ca_rg must be null"
        else:
            assert g["ca_rg"] is not None and abs(g["ca_rg"] - w["ca_rg"]) < 1e-4, f"chain {ch} ca_rg"
    gc, wc = got["contacts"], want["contacts"]
    assert [c[:4] for c in gc] == [c[:4] for c in wc], \
        f"contact list differs: {len(gc)} vs {len(wc)}; first got {gc[:3]}, want {wc[:3]}"
    for g, w in zip(gc, wc):
        assert abs(g[4] - w[4]) < 1e-4, f"contact {w[:4]} distance {g[4]} != {w[4]}"


def test_plain_structure_no_extras():
    text = make_structure(11, chains="AB", extras=False)
    want = reference(text)
    assert want["contacts"], "generator must produce contacts"
    compare(run(text), want)


def test_altlocs_waters_ions_ligands_short_lines():
    for seed in (21, 22):
        text = make_structure(seed, chains="ABC")
        compare(run(text), reference(text))


def test_fused_coordinate_columns():
    text = make_structure(31, chains="AB", offset=(-150.0, -250.0, -350.0))
    assert "-1" in text and any(l[38] != " " and l[46] != " " for l in text.splitlines() if l.startswith("ATOM"))
    compare(run(text), reference(text))


def test_first_model_only():
    text = make_structure(41, chains="AB", models=True)
    compare(run(text), reference(text))


def test_custom_cutoff():
    text = make_structure(51, chains="ABC")
    for cut in ("2.5", "6.0"):
        compare(run(text, "--cutoff", cut), reference(text, float(cut)))


def test_insertion_codes_sorting_and_ligand_only_chain():
    text = make_structure(61, chains="BA")
    lig = "\n".join(
        atom_line("HETATM", 9000 + i, nm, " ", "LIG", "Z", 1, " ", (7.5 * 0.5 + i * 0.7, 0.3 * i, 0.2), 1.0, el)
        for i, (nm, el) in enumerate([("C1", "C"), ("C2", "C"), ("N1", "N"), ("ZN", "ZN")]))
    text = text.replace("END\n", lig + "\nEND\n")
    want = reference(text)
    assert want["chains"]["Z"]["ca_rg"] is None
    assert any(c[0] == "A" and c[2] == "Z" for c in want["contacts"])
    compare(run(text), want)


def test_calcium_ion_is_not_an_alpha_carbon():
    lines = []
    for i in range(6):
        lines.append(atom_line("ATOM", i + 1, "CA", " ", "GLY", "A", i + 1, " ", (i * 3.8, 0.0, 0.0), 1.0, "C"))
    lines.append(atom_line("HETATM", 7, "CA", " ", "CA", "A", 101, " ", (40.0, 30.0, 0.0), 1.0, "CA"))
    lines.append(atom_line("ATOM", 8, "CA", " ", "GLY", "B", 1, " ", (1.0, 3.0, 0.0), 1.0, "C"))
    text = "\n".join(lines) + "\nEND\n"
    want = reference(text)
    assert abs(want["chains"]["A"]["ca_rg"] - 3.8 * math.sqrt(35 / 12)) < 1e-9
    compare(run(text), want)
