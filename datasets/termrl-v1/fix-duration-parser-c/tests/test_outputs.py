import os
import random
import subprocess
from fractions import Fraction

import pytest

HARNESS = r'''
#include <stdio.h>
#include <string.h>
#include "duration.h"
int main(void) {
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        long long v = -42;
        int r = parse_duration(strcmp(line, "<NULL>") ? line : NULL, &v);
        if (r == 0) printf("%lld\n", v); else printf("ERR %lld\n", v);
    }
    return 0;
}
'''
UNITS = {"d": 86400000, "h": 3600000, "m": 60000, "s": 1000, "ms": 1}
ORDER = ["d", "h", "m", "s", "ms"]


def ref(s):
    import re
    if not s:
        return None
    pos, total, last = 0, 0, -1
    while pos < len(s):
        m = re.compile(r"(\d+)(?:\.(\d+))?(ms|d|h|m|s)").match(s, pos)
        if not m:
            return None
        u = ORDER.index(m.group(3))
        if u <= last:
            return None
        last = u
        val = Fraction(int(m.group(1))) + (Fraction(int(m.group(2)), 10 ** len(m.group(2))) if m.group(2) else 0)
        ms = val * UNITS[m.group(3)]
        if ms.denominator != 1:
            return None
        total += int(ms)
        pos = m.end()
    return total if total < 2**63 else None


@pytest.fixture(scope="module")
def exe(tmp_path_factory):
    d = tmp_path_factory.mktemp("dur")
    (d / "h.c").write_text(HARNESS)
    r = subprocess.run(["gcc", "-std=c11", "-Wall", "-g", "-fsanitize=address,undefined",
                        "-fno-sanitize-recover=undefined", "-I/app", "-o", str(d / "h"), str(d / "h.c"),
                        "/app/duration.c"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return str(d / "h")


def check(exe, inputs):
    r = subprocess.run([exe], input="\n".join(inputs) + "\n", capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    got = r.stdout.splitlines()
    assert len(got) == len(inputs)
    for s, g in zip(inputs, got):
        want = ref(s) if s != "<NULL>" else None
        assert g == (str(want) if want is not None else "ERR -42"), s


def test_basic_units(exe):
    check(exe, ["1h30m", "250ms", "2.5s", "1d2h3m4s5ms", "0s", "90m", "1d", "7ms", "0.5h"])


def test_exact_fractions(exe):
    check(exe, ["4.35s", "0.001s", "1.5ms", "0.0001s", "1.25m", "0.1h", "2.000s", "0.0000000000000000001d",
                "3.14159s", "1.999999s", "0.5ms", "1.1000000000000000000000s"])


def test_order_and_repeats(exe):
    check(exe, ["1m1h", "1s1s", "1ms1s", "1h1h", "1h1s", "2d1ms", "1m30s500ms", "5s1m"])


def test_malformed(exe):
    check(exe, ["", "<NULL>", "10", "s", "1x", "-5s", "+5s", " 5s", "5s ", "5 s", "1e3s", "1.s", ".5s", "5S",
                "1hh", "1.2.3s", "0x10s", "5mss", "5sm"])


def test_overflow(exe):
    check(exe, ["9223372036854775807ms", "9223372036854775808ms", "106751991167d", "106751991168d",
                "106751991167d1h", "99999999999999999999999s", "9223372036854775s", "9223372036854776s",
                "106751991167d23h47m16s854ms", "106751991167d23h47m16s855ms"])


def test_random(exe):
    rng = random.Random(55)
    inputs = []
    for _ in range(2000):
        parts = []
        for u in ORDER:
            if rng.random() < 0.5:
                num = str(rng.randint(0, 10 ** rng.randint(0, 6)))
                if rng.random() < 0.4:
                    num += "." + "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 4)))
                parts.append(num + u)
        if rng.random() < 0.1 and len(parts) > 1:
            rng.shuffle(parts)
        inputs.append("".join(parts))
    check(exe, inputs)
