"""Compiles a few small programs with gcc and derives infected copies by patching ELF headers in place
(PT_NOTE -> RWX PT_LOAD with appended code and a new entry point, entry redirection, RWX flags, a
rewritten interpreter), plus builds with suspicious run paths. Returns the expected triage."""
import os
import random
import shutil
import struct
import subprocess

SRC = [
    'int main(void){return 0;}\n',
    '#include <stdio.h>\nint main(int c,char**v){for(int i=0;i<c;i++)puts(v[i]);return 0;}\n',
    '#include <stdlib.h>\n#include <string.h>\nint main(void){char*p=malloc(64);strcpy(p,"x");free(p);return 0;}\n',
    '#include <stdio.h>\nstatic int f(int x){return x*3+1;}\nint main(void){printf("%d\\n",f(4));return 0;}\n',
]


def phdrs(b):
    phoff, = struct.unpack_from("<Q", b, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", b, 0x36)
    return [(phoff + i * phentsize, struct.unpack_from("<IIQQQQQQ", b, phoff + i * phentsize)) for i in range(phnum)]


def sections(b):
    shoff, = struct.unpack_from("<Q", b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3A)
    raw = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize) for i in range(shnum)]
    stroff = raw[shstrndx][4]
    out = {}
    for s in raw:
        name = b[stroff + s[0]:b.index(b"\0", stroff + s[0])].decode()
        out[name] = s
    return out


def build(seed, out):
    r = random.Random(seed)
    out = os.path.abspath(out)
    work = os.path.join(out, ".work")
    os.makedirs(work, exist_ok=True)
    bins = os.path.join(out, "bin")
    os.makedirs(bins, exist_ok=True)
    word = lambda: "".join(r.choice("abcdefghkmnprstuvwxz") for _ in range(r.randint(3, 7)))  # noqa: E731
    base = []
    for i, src in enumerate(SRC):
        with open(os.path.join(work, f"p{i}.c"), "w") as f:
            f.write(src)
        flags = r.choice([["-O2"], ["-O0"], ["-O2", "-no-pie"]])
        subprocess.run(["gcc", *flags, "-o", f"p{i}", f"p{i}.c"], cwd=work, check=True, capture_output=True)
        base.append(open(os.path.join(work, f"p{i}"), "rb").read())
    exp = {}
    names = set()

    def name():
        while True:
            n = word()
            if n not in names:
                names.add(n)
                return n

    def put(data, findings, mode=0o755):
        n = name()
        p = os.path.join(bins, n)
        with open(p, "wb") as f:
            f.write(data)
        os.chmod(p, mode)
        exp[n] = sorted(findings)

    for b in base:                                   # clean copies
        put(b, [])
    # 1. PT_NOTE turned into an RWX PT_LOAD with appended code, entry moved there
    b = bytearray(r.choice(base))
    off_ph, ph = next((o, p) for o, p in phdrs(b) if p[0] == 4)
    pad = (-len(b)) % 0x1000
    code_off = len(b) + pad
    code = bytes(r.randrange(256) for _ in range(r.randint(200, 600)))
    vaddr = 0xC000000 + code_off
    b += bytes(pad) + code
    struct.pack_into("<IIQQQQQQ", b, off_ph, 1, 7, code_off, vaddr, vaddr, len(code), len(code), 0x1000)
    struct.pack_into("<Q", b, 0x18, vaddr)
    put(bytes(b), ["entry-outside-text", "load-without-sections", "rwx-segment"])
    # 2. entry redirected into .init / .plt (executable, but not .text)
    b = bytearray(r.choice(base))
    s = sections(b)
    tgt = s[".init"][3] if r.random() < 0.5 or ".plt" not in s else s[".plt"][3]
    struct.pack_into("<Q", b, 0x18, tgt)
    put(bytes(b), ["entry-outside-text"])
    # 3. the data segment made executable
    b = bytearray(r.choice(base))
    o, p = next((o, p) for o, p in phdrs(b) if p[0] == 1 and p[1] == 6)
    struct.pack_into("<I", b, o + 4, 7)
    put(bytes(b), ["rwx-segment"])
    # 4. interpreter rewritten
    b = bytearray(r.choice(base))
    o, p = next((o, p) for o, p in phdrs(b) if p[0] == 3)
    new = r.choice([b"/dev/shm/.ld-x86-64.so.2", b"/tmp/.X11/ld-linux.so.2", b"/lib/ld-musl-x86_64.so.1"])
    b[p[2]:p[2] + p[5]] = new + bytes(p[5] - len(new))
    put(bytes(b), ["unusual-interpreter"])
    # 5. builds with run paths: writable dirs / relative are suspicious, $ORIGIN and /usr/lib are fine
    for rp, bad in ((f"/tmp/.{word()}", True), (f"$ORIGIN/../lib", False), ("/usr/lib/x86_64-linux-gnu/app", False),
                    (f"lib:/opt/{word()}/lib", True), (f"/opt/{word()}/lib:/var/tmp/cache", True)):
        opt = r.choice(["-Wl,--enable-new-dtags", "-Wl,--disable-new-dtags"])
        subprocess.run(["gcc", "-O2", opt, f"-Wl,-rpath,{rp}", "-o", "rp", "p1.c"], cwd=work, check=True,
                       capture_output=True)
        put(open(os.path.join(work, "rp"), "rb").read(), ["suspicious-runpath"] if bad else [])
    # not ELF: a script, a text file
    with open(os.path.join(bins, name()), "w") as f:
        f.write("#!/bin/sh\nexec /usr/bin/env python3 \"$@\"\n")
    with open(os.path.join(bins, "README"), "w") as f:
        f.write("binaries collected from /usr/local/bin on web03\n")
    shutil.rmtree(work)
    return [{"file": n, "findings": exp[n]} for n in sorted(exp)]
