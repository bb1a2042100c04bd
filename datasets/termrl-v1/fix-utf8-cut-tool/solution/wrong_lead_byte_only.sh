#!/bin/bash
# Mistake: fixes the signed-char bug but still trusts the lead byte: the length comes from it alone, continuation bytes are not checked, so a broken sequence swallows the next characters.
set -euo pipefail
cp "$(dirname "$0")/ucut.c" /app/ucut.c
python3 - <<'PY'
p = "/app/ucut.c"
s = open(p).read()
old = """    if (n < len || s[1] < lo || s[1] > hi)
        return 1;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 1;
    return len;"""
new = """    (void)lo;
    (void)hi;
    return len < n ? len : n;"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
cd /app && make -s
