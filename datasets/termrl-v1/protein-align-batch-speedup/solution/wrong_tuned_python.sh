#!/bin/bash
# Plausible but too slow: the usual pure-Python tuning (integer-coded sequences, a query profile instead of
# dict look-ups, local variables, no max() calls). The output is right, and it is ~2-3x faster, far
# from the bar.
set -euo pipefail
cd /app/align
python3 - <<'PY'
src = open("align_batch.py").read()
fast = '''
def local_align(a, b, matrix, gap_open, gap_extend):
    n, m = len(a), len(b)
    neg = -(1 << 30)
    profile = {c: [matrix[c][x] for x in b] for c in set(a)}
    h_prev = [0] * (m + 1)
    f_prev = [neg] * (m + 1)
    best = best_i = best_j = 0
    go, ge = gap_open, gap_extend
    for i in range(1, n + 1):
        prof = profile[a[i - 1]]
        h_cur = [0] * (m + 1)
        f_cur = [neg] * (m + 1)
        e = neg
        hl = 0
        for j in range(1, m + 1):
            e = e - ge
            t = hl - go
            if t > e:
                e = t
            hp = h_prev[j]
            f = f_prev[j] - ge
            t = hp - go
            if t > f:
                f = t
            h = h_prev[j - 1] + prof[j - 1]
            if h < 0:
                h = 0
            if e > h:
                h = e
            if f > h:
                h = f
            h_cur[j] = h
            f_cur[j] = f
            hl = h
            if h > best:
                best, best_i, best_j = h, i, j
        h_prev, f_prev = h_cur, f_cur
    return best, best_i, best_j


'''
marker = "def main("
open("align_batch.py", "w").write(src.replace(marker, fast + marker, 1))
PY
