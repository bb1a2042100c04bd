#!/bin/bash
# Plausible but wrong: Decimal parsing dominates the profile, so prices become floats and the figures are
# printed with format specifiers; binary floating point and its rounding of ties then change some of
# the last printed digits.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/tca/markouts.py"
s = open(p).read()
for old, new in [
    ("    d = Decimal(text)\n    if not d.is_finite() or d <= 0:\n", "    d = float(text)\n    if d != d or d in (float('inf'), float('-inf')) or d <= 0:\n"),
    ("BPS = Decimal(10000)\n", "BPS = 10000.0\n"),
    ("Decimal(0)", "0.0"),
    ("{mid.quantize(MID)},{spread.quantize(TWO)},{slip.quantize(TWO)},", "{mid:.5f},{spread:.2f},{slip:.2f},"),
    ("{markout.quantize(TWO)}", "{markout:.2f}"),
    ("(wsum / wqty).quantize(TWO) if wqty", 'f"{wsum / wqty:.2f}" if wqty'),
]:
    assert old in s, old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
