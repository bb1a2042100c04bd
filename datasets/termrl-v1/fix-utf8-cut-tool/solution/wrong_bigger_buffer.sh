#!/bin/bash
# Mistake: replaces the line handling by fgets into a bigger (4 KiB) buffer instead of reading whole lines.
set -euo pipefail
cp "$(dirname "$0")/ucut.c" /app/ucut.c
python3 - <<'PY'
p = "/app/ucut.c"
s = open(p).read()
old = """    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    int c;
    while ((c = getc(in)) != EOF) {
        if (c == '\\n') {
            cut_line(buf, n);
            putchar('\\n');
            n = 0;
            continue;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 256;
            buf = realloc(buf, cap);
            if (!buf)
                abort();
        }
        buf[n++] = (unsigned char)c;
    }
    if (n)
        cut_line(buf, n);
    free(buf);"""
new = """    static char buf[4096];
    while (fgets(buf, sizeof buf, in)) {
        size_t n = strlen(buf);
        int nl = n && buf[n - 1] == '\\n';
        if (nl)
            buf[--n] = '\\0';
        cut_line((unsigned char *)buf, n);
        if (nl)
            putchar('\\n');
    }"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
cd /app && make -s
