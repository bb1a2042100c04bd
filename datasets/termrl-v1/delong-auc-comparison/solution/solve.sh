#!/bin/bash
set -euo pipefail
cat > /app/compare_auc.py <<'PY'
import csv
import json
import math
import sys

import numpy as np


def components(pos, neg):
    # psi(x, y) = 1 if x > y, 0.5 if equal, 0 otherwise
    cmp = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return cmp.mean(axis=1), cmp.mean(axis=0), cmp.mean()


def main(inp, outp):
    with open(inp, newline="") as f:
        rows = list(csv.DictReader(f))
    y = np.array([int(r["label"]) for r in rows])
    S = np.array([[float(r["score_a"]), float(r["score_b"])] for r in rows])
    pos, neg = S[y == 1], S[y == 0]
    m, n = len(pos), len(neg)
    v10, v01, auc = [], [], []
    for k in range(2):
        a, b, c = components(pos[:, k], neg[:, k])
        v10.append(a)
        v01.append(b)
        auc.append(c)
    cov = np.cov(np.array(v10), ddof=1) / m + np.cov(np.array(v01), ddof=1) / n
    se = np.sqrt(np.diag(cov))
    diff = auc[1] - auc[0]
    var_d = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    se_d = math.sqrt(max(var_d, 0.0))
    if se_d == 0:
        z = p = None
    else:
        z = diff / se_d
        p = math.erfc(abs(z) / math.sqrt(2))
    q = 1.959963984540054
    ci = [[max(0.0, auc[k] - q * se[k]), min(1.0, auc[k] + q * se[k])] for k in range(2)]
    out = {"n_pos": m, "n_neg": n, "auc_a": auc[0], "auc_b": auc[1], "se_a": float(se[0]), "se_b": float(se[1]),
           "cov_ab": float(cov[0, 1]), "diff": diff, "se_diff": se_d, "z": z, "p_value": p,
           "ci_a": ci[0], "ci_b": ci[1]}
    with open(outp, "w") as f:
        json.dump(out, f)


main(sys.argv[1], sys.argv[2])
PY
