#!/bin/bash
set -euo pipefail
python3 - <<'PY'
import csv
layout = []
for line in open("/app/layout.txt"):
    if line.strip() and not line.startswith("#"):
        n, s, l, t = line.split()
        layout.append((n, int(s), int(l), t))
out = open("/app/accounts.csv", "w", newline="", encoding="utf-8")
w = csv.writer(out)
w.writerow([f[0] for f in layout])
for line in open("/app/accounts.dat", encoding="utf-8", errors="replace", newline=""):
    line = line.rstrip("\r\n")
    if not line.startswith("D"):
        continue
    body = line[1:]
    row = []
    for n, s, l, t in layout:
        v = body[s - 1:s - 1 + l]
        if t == "A":
            v = v.strip()
        elif t == "N":
            v = str(int(v))
        elif t == "D2":
            digits, sign = v[:-1], v[-1]
            c = int(digits)
            v = f"{'-' if sign == '-' and c else ''}{c // 100}.{c % 100:02d}"
        elif t == "DT":
            v = "" if v == "00000000" else f"{v[:4]}-{v[4:6]}-{v[6:]}"
        row.append(v)
    w.writerow(row)
out.close()
PY
