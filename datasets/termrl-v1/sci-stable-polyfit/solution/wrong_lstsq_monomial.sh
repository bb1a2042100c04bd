#!/bin/bash
# Mistake: replaces the normal equations by lstsq, but still in the raw monomial basis.
set -euo pipefail
cd /app/fitlib
python3 - <<'PY'
s = open("poly.py").read()
s = s.replace("""    A = V.T @ (w[:, None] * V)           # normal equations
    b = V.T @ (w * y)
    return PolyFit(np.linalg.solve(A, b))""", """    if len(np.unique(x)) < deg + 1:
        raise ValueError("need at least deg + 1 distinct x values")
    sw = np.sqrt(w)
    coef = np.linalg.lstsq(V * sw[:, None], sw * y, rcond=None)[0]
    return PolyFit(coef)""")
open("poly.py", "w").write(s)
PY
