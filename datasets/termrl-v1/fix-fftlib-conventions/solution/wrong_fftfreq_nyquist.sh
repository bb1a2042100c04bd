#!/bin/bash
set -euo pipefail
# Mistake: leaves fftfreq reporting the Nyquist frequency as positive for even n.
python3 - <<'PY'
import pathlib


def fix(name, old, new):
    p = pathlib.Path('/app/fftlib') / name
    s = p.read_text()
    assert s.count(old) == 1, (name, old)
    p.write_text(s.replace(old, new))

fix('helpers.py', '    s = (len(x) + 1) // 2\n', '    s = len(x) // 2\n')
fix('core.py', '((k * k) % n)', '((k * k) % (2 * n))')
fix('core.py', '    # k*k taken modulo n keeps', '    # k*k taken modulo 2n keeps')
fix('real.py', '    H[-1] = complex(H[-1].real, 0.0)\n', '    if n % 2 == 0:\n        H[-1] = complex(H[-1].real, 0.0)\n')
fix('conv.py', '        start = N // 2\n', '        start = (N - 1) // 2\n')
fix('conv.py', '    M, N = len(a), len(v)\n', '    if len(v) > len(a):\n        a, v = v, a\n    M, N = len(a), len(v)\n')
PY
