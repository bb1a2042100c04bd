#!/bin/bash
# Mistake: terminates every line with a newline, including a last line that had none.
set -euo pipefail
cp "$(dirname "$0")/ucut.c" /app/ucut.c
python3 - <<'PY'
p = "/app/ucut.c"
s = open(p).read()
old = """    if (n)
        cut_line(buf, n);
    free(buf);"""
new = """    if (n) {
        cut_line(buf, n);
        putchar('\\n');
    }
    free(buf);"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
cd /app && make -s
