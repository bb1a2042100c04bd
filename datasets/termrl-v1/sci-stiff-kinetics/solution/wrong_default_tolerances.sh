#!/bin/bash
# Mistake: switches to an implicit solver but keeps scipy's default tolerances (rtol=1e-3).
set -euo pipefail
cd /app
python3 - <<'PY'
s = open("kinetics.py").read()
s = s.replace("import numpy as np\n", "import numpy as np\nfrom scipy.integrate import solve_ivp\n", 1)
start = s.index("    t = 0.0\n    dt = 1e-4")
end = s.index('    return {"times"')
s = s[:start] + '''    times = [float(t) for t in config["times"]]
    sol = solve_ivp(rhs, (0.0, times[-1]), y, method="LSODA", t_eval=times)
    out = {s: [float(v) for v in sol.y[i]] for i, s in enumerate(species)}
''' + s[end:]
open("kinetics.py", "w").write(s)
PY
