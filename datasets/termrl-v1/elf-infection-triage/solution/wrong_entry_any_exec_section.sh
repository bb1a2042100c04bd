#!/bin/bash
# Wrong: accepts an entry point inside any executable section, not only .text.
set -e
cat > /app/elftriage <<'PY'
#!/usr/bin/env python3
import json
import os
import struct
import sys

PT_LOAD, PT_DYNAMIC, PT_INTERP = 1, 2, 3
DT_STRTAB, DT_RPATH, DT_RUNPATH = 5, 15, 29
GOOD_INTERP = {"/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"}
WRITABLE = ("/tmp", "/var/tmp", "/dev/shm")


def cstr(b, off):
    end = b.find(b"\0", off)
    return b[off:end if end >= 0 else len(b)].decode("utf-8", "replace")


def triage(b):
    entry, phoff, shoff = struct.unpack_from("<QQQ", b, 0x18)
    phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from("<HHHHH", b, 0x36)
    phs = [struct.unpack_from("<IIQQQQQQ", b, phoff + i * phentsize) for i in range(phnum)]
    shs = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize) for i in range(shnum)] if shoff else []
    names = {}
    if shs and shstrndx < len(shs):
        base = shs[shstrndx][4]
        for s in shs:
            names.setdefault(cstr(b, base + s[0]), s)
    f = set()
    if not any(s[2] & 0x4 and s[3] <= entry < s[3] + s[5] for s in shs):
        f.add("entry-outside-text")
    alloc = [s for s in shs if s[2] & 0x2 and s[5] > 0]
    for p in phs:
        if p[0] == PT_LOAD:
            if p[1] & 7 == 7:
                f.add("rwx-segment")
            if not any(p[3] <= s[3] < p[3] + p[6] for s in alloc):
                f.add("load-without-sections")
        elif p[0] == PT_INTERP:
            if cstr(b[p[2]:p[2] + p[5]], 0) not in GOOD_INTERP:
                f.add("unusual-interpreter")
    dyn = next((p for p in phs if p[0] == PT_DYNAMIC), None)
    if dyn:
        ents = [struct.unpack_from("<qQ", b, dyn[2] + i * 16) for i in range(dyn[5] // 16)]
        strtab_addr = next((v for t, v in ents if t == DT_STRTAB), None)
        strtab_off = None
        for p in phs:
            if p[0] == PT_LOAD and strtab_addr is not None and p[3] <= strtab_addr < p[3] + p[5]:
                strtab_off = strtab_addr - p[3] + p[2]
        for t, v in ents:
            if t in (DT_RPATH, DT_RUNPATH) and strtab_off is not None:
                for d in cstr(b, strtab_off + v).split(":"):
                    if not (d.startswith("/") or d.startswith("$ORIGIN")) or \
                            any(d == w or d.startswith(w + "/") for w in WRITABLE):
                        f.add("suspicious-runpath")
    return sorted(f)


def main(d):
    out = []
    for n in sorted(os.listdir(d)):
        p = os.path.join(d, n)
        if not os.path.isfile(p) or os.path.islink(p):
            continue
        b = open(p, "rb").read()
        if len(b) < 64 or b[:4] != b"\x7fELF" or b[4] != 2 or b[5] != 1:
            continue
        out.append({"file": n, "findings": triage(b)})
    json.dump(out, sys.stdout, indent=1)
    print()


main(sys.argv[1])
PY
chmod +x /app/elftriage
