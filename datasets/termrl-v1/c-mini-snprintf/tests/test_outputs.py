import os
import random
import subprocess

import pytest

SRC = "/app/minifmt.c"
HDR_DIR = "/app"
WORK = "/tmp/minifmt_tests"

HARNESS_HEAD = r"""
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <stdint.h>
#include <sys/types.h>
#include "minifmt.h"
static int bad = 0, total = 0;
static void chk(int id, const char *a, int ra, const char *b, int rb) {
    total++;
    if (ra != rb || strcmp(a, b) != 0) {
        if (bad < 25) printf("case %d: mini returned %d \"%s\", snprintf returned %d \"%s\"\n", id, ra, a, rb, b);
        bad++;
    }
}
"""


@pytest.fixture(scope="module")
def obj():
    os.makedirs(WORK, exist_ok=True)
    o = os.path.join(WORK, "minifmt.o")
    r = subprocess.run(["gcc", "-std=c11", "-Wall", "-O1", "-I", HDR_DIR, "-c", SRC, "-o", o],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return o


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def build_and_run(obj, cases, name):
    """cases: list of (fmt, [c-arg-expr...], size)."""
    lines = [HARNESS_HEAD]
    for start in range(0, len(cases), 150):
        lines.append(f"static void part{start}(void) {{ char A[512], B[512]; int ra, rb;")
        for i, (fmt, args, size) in enumerate(cases[start:start + 150], start):
            a = "".join(", " + x for x in args)
            if size == 0:
                lines.append(f" memset(A,'#',4); memset(B,'#',4); A[4]=B[4]=0; ra = mini_snprintf(NULL, 0, {cstr(fmt)}{a});"
                             f" rb = snprintf(NULL, 0, {cstr(fmt)}{a}); chk({i}, A, ra, B, rb);")
            else:
                lines.append(f" memset(A,'#',sizeof A); memset(B,'#',sizeof B);"
                             f" ra = mini_snprintf(A, {size}, {cstr(fmt)}{a}); rb = snprintf(B, {size}, {cstr(fmt)}{a});"
                             f" A[511]=B[511]=0; if (memcmp(A, B, {size}) != 0) {{ A[{size}-1]=0; B[{size}-1]=0; chk({i}, A, ra, \"<bytes differ>\", rb); }} else chk({i}, A, ra, B, rb);")
        lines.append("}")
    lines.append("int main(void) {")
    for start in range(0, len(cases), 150):
        lines.append(f" part{start}();")
    lines.append(' printf("%d/%d mismatches\\n", bad, total); return bad != 0; }')
    c = os.path.join(WORK, name + ".c")
    exe = os.path.join(WORK, name)
    with open(c, "w") as f:
        f.write("\n".join(lines))
    r = subprocess.run(["gcc", "-std=c11", "-O0", "-w", "-I", HDR_DIR, c, obj, "-o", exe],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    r = subprocess.run([exe], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-1000:]
    assert f"0/{len(cases)} mismatches" in r.stdout


def test_no_printf_family(obj):
    r = subprocess.run(["nm", "-u", obj], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0
    bad = [ln for ln in r.stdout.split() if "printf" in ln]
    assert not bad, f"minifmt.o uses {bad}"


def test_basic_conversions(obj):
    cases = [("plain text", [], 64), ("%d|%i|%u", ["42", "-7", "3000000000u"], 64), ("%o %x %X", ["8", "255", "48879"], 64),
             ("[%c][%s]", ["'z'", '"str"'], 64), ("100%%", [], 64), ("%%%d%%", ["5"], 64),
             ("%d %d", ["INT_MIN", "INT_MAX"], 64), ("%u", ["UINT_MAX"], 64), ("%s%s", ['""', '"x"'], 64)]
    build_and_run(obj, cases, "basic")


def test_flags_width_precision(obj):
    cases = [("[%5d][%-5d][%05d][%+d][% d][%+ d]", ["42", "42", "-42", "0", "7", "7"], 128),
             ("[%.3d][%8.3d][%-8.3d][%08.3d][%.0d][%5.0d][%.0x]", ["7", "-7", "7", "7", "0", "0", "0"], 128),
             ("[%#o][%#.0o][%#x][%#X][%#x][%#.0x][%#5o][%#08x][%#-8x]", ["8", "0", "255", "255", "0", "0", "8", "255", "255"], 128),
             ("[%#.3o][%#.2o][%#o]", ["8", "8", "0"], 64),
             ("[%*d][%-*d][%*d][%.*d][%.*d][%*.*s]", ["6", "1", "6", "1", "-6", "1", "4", "3", "-2", "3", "5", "2", '"abc"'], 128),
             ("[%10s][%-10s][%.2s][%.0s][%5c][%-5c]", ['"hi"', '"hi"', '"hello"', '"x"', "'q'", "'q'"], 128),
             ("[%+u][% u][%+x][%0+8d][%0 8d][%-08d]", ["5u", "5u", "255u", "42", "42", "42"], 128)]
    build_and_run(obj, cases, "flags")


def test_length_modifiers(obj):
    cases = [("%hhd %hhu %hhx", ["300", "300", "-1"], 64), ("%hd %hu %ho", ["70000", "-1", "65535"], 64),
             ("%ld %lu %lx", ["LONG_MIN", "ULONG_MAX", "LONG_MAX"], 96), ("%lld %llu %llX", ["LLONG_MIN", "ULLONG_MAX", "(long long)-1"], 96),
             ("%zu %zd %zx", ["(size_t)SIZE_MAX", "(ssize_t)-5", "(size_t)4096"], 96), ("%+.25lld|%-30llo|", ["LLONG_MIN", "ULLONG_MAX"], 128)]
    build_and_run(obj, cases, "length")


def test_truncation_and_return_value(obj):
    cases = []
    for size in (0, 1, 2, 3, 5, 8):
        cases += [("hello %s!", ['"world"'], size), ("%08.3d|%#x", ["-12", "48879"], size), ("%%%c%%", ["'x'"], size)]
    build_and_run(obj, cases, "trunc")


INTS = ["0", "1", "-1", "7", "-42", "255", "256", "1000", "-32768", "65535", "INT_MAX", "INT_MIN", "123456789", "-99"]
LONGS = ["0L", "1L", "-1L", "LONG_MAX", "LONG_MIN", "4294967296L", "-123456789012L"]
LLS = ["0LL", "-1LL", "LLONG_MAX", "LLONG_MIN", "9876543210LL", "-77LL"]
UINTS = ["0u", "1u", "8u", "255u", "UINT_MAX", "4096u", "0x80000000u", "511u"]
ULONGS = ["0UL", "ULONG_MAX", "0x123456789abcUL", "64UL"]
ULLS = ["0ULL", "ULLONG_MAX", "01777ULL", "18446744073709551000ULL"]
STRS = ['""', '"a"', '"hello"', '"with space"', '"%not a conv"', '"abcdefghijklmnopqrstuvwxyz"', '"quote\\"d"']
TEXT = "ab :=|-_ %%"


def rand_spec(rng, args):
    conv = rng.choice("diuoxXcs%uxdd")
    if conv == "%":
        return "%%"
    flags = ""
    allowed = {"d": "-+ 0", "i": "-+ 0", "u": "-+ 0", "o": "-+ #0", "x": "-+ #0", "X": "-+ #0", "c": "-", "s": "-"}[conv]
    for f in allowed:
        if rng.random() < 0.25:
            flags += f
    if len(flags) > 1 and rng.random() < 0.3:
        flags = "".join(rng.sample(flags, len(flags)))
    spec = "%" + flags
    r = rng.random()
    if r < 0.35:
        spec += str(rng.randint(1, 24))
    elif r < 0.5:
        spec += "*"
        args.append(f"(int){rng.randint(-24, 24)}")
    if conv != "c":
        r = rng.random()
        if r < 0.3:
            spec += "." + str(rng.randint(0, 22))
        elif r < 0.38:
            spec += "."
        elif r < 0.5:
            spec += ".*"
            args.append(f"(int){rng.randint(-3, 22)}")
    if conv == "c":
        args.append("'" + rng.choice("aZ9#") + "'")
        return spec + "c"
    if conv == "s":
        args.append(rng.choice(STRS))
        return spec + "s"
    mod = rng.choice(["", "", "hh", "h", "l", "ll", "z"])
    signed = conv in "di"
    if mod in ("", "hh", "h"):
        v = rng.choice(INTS) if signed else rng.choice(UINTS + ["(unsigned)" + x for x in INTS])
        args.append(v if signed else f"(unsigned)({v})")
    elif mod == "l":
        args.append(rng.choice(LONGS) if signed else rng.choice(ULONGS))
    elif mod == "ll":
        args.append(rng.choice(LLS) if signed else rng.choice(ULLS))
    else:
        args.append(f"(ssize_t)({rng.choice(LONGS)})" if signed else f"(size_t)({rng.choice(ULONGS)})")
    return spec + mod + conv


def test_random_formats_against_glibc(obj):
    rng = random.Random(31337)
    cases = []
    for _ in range(1500):
        args = []
        fmt = ""
        for _ in range(rng.randint(1, 3)):
            fmt += "".join(rng.choice(TEXT) for _ in range(rng.randint(0, 3))).replace("%%", "%%").replace("%", "%%")
            fmt += rand_spec(rng, args)
        size = rng.choice([0, 1, 4, 16, 500, 500, 500, 500])
        cases.append((fmt, args, size))
    build_and_run(obj, cases, "random")
