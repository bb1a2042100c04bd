#!/bin/bash
# Fixes buffer size, wrapping and strict decoding but not the sign extension of high bytes when encoding.
set -euo pipefail
python3 - <<'PY'
p = "/app/b64.c"
s = open(p).read()
def sub(old, new):
    global s
    assert old in s, old
    s = s.replace(old, new, 1)
# output buffer too small for a partial final group
sub("size_t outlen = len / 3 * 4;", "size_t outlen = (len + 2) / 3 * 4;")
# sign extension of bytes >= 0x80

# wrapping: no blank line when the output length is a multiple of the wrap width
sub("""    for (size_t i = 0; i < o; i++) {
        putchar(out[i]);
        if (wrap && (i + 1) % wrap == 0) putchar('\\n');
    }
    if (o) putchar('\\n');""", """    for (size_t i = 0; i < o; i++) {
        putchar(out[i]);
        if ((wrap > 0 && (i + 1) % (size_t)wrap == 0) || i + 1 == o) putchar('\\n');
    }""")
# strict decoding
sub("""    unsigned v = 0;
    int nbits = 0, pad = 0;
    for (size_t i = 0; i < len; i++) {
        char c = in[i];
        if (c == ' ' || c == '\\n' || c == '\\t') continue;
        if (c == '=') { pad++; continue; }
        if (rev[(int)c] < 0) return -1;
        v = (v << 6) | rev[(int)c];
        nbits += 6;
        if (nbits >= 8) {
            nbits -= 8;
            putchar((v >> nbits) & 0xff);
        }
    }
    return 0;""", """    unsigned v = 0;
    int nbits = 0, pad = 0;
    size_t count = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)in[i];
        if (c == ' ' || c == '\\n' || c == '\\t' || c == '\\r') continue;
        count++;
        if (c == '=') { pad++; continue; }
        if (pad) return -1;               /* data after padding */
        if (rev[c] < 0) return -1;
        v = ((v << 6) | (unsigned)rev[c]) & 0xffffff;
        nbits += 6;
        if (nbits >= 8) {
            nbits -= 8;
            putchar((int)((v >> nbits) & 0xff));
        }
    }
    if (count % 4 != 0 || pad > 2) return -1;
    if (pad == 1 && nbits != 2) return -1;
    if (pad == 2 && nbits != 4) return -1;
    if (pad == 0 && nbits != 0) return -1;
    return 0;""")
open(p, "w").write(s)
PY
gcc -O2 -Wall -o /app/b64 /app/b64.c
