#!/bin/bash
# Mistake: reads the coordinates by splitting on whitespace, which breaks when coordinate fields touch.
set -euo pipefail
cat > /app/pdbgeo.py <<'PY'
import argparse
import json
import math

MASS = {"H": 1.008, "C": 12.011, "N": 14.007, "O": 15.999, "S": 32.06, "P": 30.974,
        "MG": 24.305, "CA": 40.078, "ZN": 65.38, "FE": 55.845}


def parse(path):
    atoms = {}
    order = []
    with open(path) as fh:
        for line in fh:
            line = line.rstrip("\r\n")
            if line.startswith("ENDMDL"):
                break
            rec = line[:6]
            if rec not in ("ATOM  ", "HETATM"):
                continue
            if line[17:20].strip() == "HOH":
                continue
            f = line.split()
            name = f[2]
            chain = line[21]
            res = (int(line[22:26]), line[26:27].strip())
            occ = float(line[54:60])
            elem = line[76:78].strip().upper()
            if not elem:
                elem = name[0].upper()
            xyz = (float(f[-6 if len(f) >= 11 else -5]), float(f[-5 if len(f) >= 11 else -4]), float(f[-4 if len(f) >= 11 else -3]))
            key = (chain, res, name)
            if key in atoms and atoms[key]["occ"] >= occ:
                continue
            if key not in atoms:
                order.append(key)
            atoms[key] = {"chain": chain, "res": res, "name": name, "hetero": rec == "HETATM",
                          "xyz": xyz, "occ": occ, "elem": elem}
    return [atoms[k] for k in order]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pdb")
    ap.add_argument("--cutoff", type=float, default=4.0)
    a = ap.parse_args()
    atoms = parse(a.pdb)
    by_chain = {}
    for at in atoms:
        by_chain.setdefault(at["chain"], []).append(at)
    chains = {}
    for ch in sorted(by_chain):
        lst = by_chain[ch]
        total = sum(MASS[x["elem"]] for x in lst)
        com = [sum(MASS[x["elem"]] * x["xyz"][k] for x in lst) / total for k in range(3)]
        ca = [x["xyz"] for x in lst if not x["hetero"] and x["name"] == "CA"]
        rg = None
        if ca:
            c = [sum(p[k] for p in ca) / len(ca) for k in range(3)]
            rg = math.sqrt(sum((p[0] - c[0]) ** 2 + (p[1] - c[1]) ** 2 + (p[2] - c[2]) ** 2 for p in ca) / len(ca))
        chains[ch] = {"atoms": len(lst), "residues": len({x["res"] for x in lst}),
                      "center_of_mass": com, "ca_rg": rg}
    cut2 = a.cutoff ** 2
    best = {}
    names = sorted(by_chain)
    heavy = {ch: [x for x in by_chain[ch] if x["elem"] != "H"] for ch in names}
    for i, c1 in enumerate(names):
        for c2 in names[i + 1:]:
            for x in heavy[c1]:
                for y in heavy[c2]:
                    d2 = sum((x["xyz"][k] - y["xyz"][k]) ** 2 for k in range(3))
                    if d2 < cut2:
                        key = (c1, x["res"], c2, y["res"])
                        if d2 < best.get(key, math.inf):
                            best[key] = d2
    contacts = [[c1, f"{r1[0]}{r1[1]}", c2, f"{r2[0]}{r2[1]}", math.sqrt(best[(c1, r1, c2, r2)])]
                for (c1, r1, c2, r2) in sorted(best)]
    print(json.dumps({"chains": chains, "contacts": contacts}))


main()
PY
