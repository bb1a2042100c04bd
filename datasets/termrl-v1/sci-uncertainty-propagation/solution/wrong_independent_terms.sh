#!/bin/bash
# Plausible but wrong: textbook "add the contributions in quadrature": sigma = sqrt(sum (df/dx_k * sigma_k)^2)
# with numerical derivatives, ignoring the correlations between variables and between results (the
# correlation matrix is reported as the identity).
set -euo pipefail
cat > /app/uprop.py <<'PY'
import json
import math
import sys

inp = json.load(open(sys.argv[1]))
V = inp["variables"]
G = {"sin": math.sin, "cos": math.cos, "tan": math.tan, "exp": math.exp, "log": math.log, "sqrt": math.sqrt,
     "pi": math.pi, "__builtins__": {}}
res = []
for e in inp["expressions"]:
    try:
        f = lambda env: eval(e, G, env)
        base = {k: v["value"] for k, v in V.items()}
        val = f(base)
        tot = 0.0
        for k, v in V.items():
            h = 1e-6 * max(1.0, abs(v["value"]))
            up, dn = dict(base), dict(base)
            up[k] += h
            dn[k] -= h
            tot += ((f(up) - f(dn)) / (2 * h) * v["sigma"]) ** 2
    except Exception as ex:
        print(f"expression {e!r}: {ex}", file=sys.stderr)
        sys.exit(2)
    res.append({"expr": e, "value": val, "sigma": math.sqrt(tot)})
n = len(res)
print(json.dumps({"results": res, "correlation": [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]}))
PY
