#!/bin/bash
set -euo pipefail
cat > /app/srtfix.py <<'PY'
import math
import re
import sys
from fractions import Fraction

TS = re.compile(r"^(\d{2}):(\d{2}):(\d{2})[,.](\d{3})$")


def die(msg):
    sys.stderr.write(msg + "\n")
    sys.exit(2)


def parse_ts(s, strict=True):
    m = TS.match(s.strip())
    if not m:
        if strict:
            die(f"bad timestamp: {s}")
        raise ValueError(s)
    h, mi, se, ms = map(int, m.groups())
    return ((h * 60 + mi) * 60 + se) * 1000 + ms


def fmt(ms):
    h, rem = divmod(ms, 3600000)
    mi, rem = divmod(rem, 60000)
    s, ms = divmod(rem, 1000)
    return f"{h:02d}:{mi:02d}:{s:02d},{ms:03d}"


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        die("usage: srtfix.py IN OUT --map OLD=NEW [--map OLD=NEW]")
    src, dst, rest = args[0], args[1], args[2:]
    maps = []
    i = 0
    while i < len(rest):
        if rest[i] == "--map" and i + 1 < len(rest):
            spec = rest[i + 1]
            i += 2
        elif rest[i].startswith("--map="):
            spec = rest[i][6:]
            i += 1
        else:
            die(f"bad argument {rest[i]}")
        if spec.count("=") != 1:
            die("bad --map")
        a, b = spec.split("=")
        if not re.fullmatch(r"\d{2}:\d{2}:\d{2},\d{3}", a) or not re.fullmatch(r"\d{2}:\d{2}:\d{2},\d{3}", b):
            die("bad --map timestamp")
        maps.append((parse_ts(a), parse_ts(b)))
    if not 1 <= len(maps) <= 2:
        die("need one or two --map")
    if len(maps) == 1:
        (o1, n1), = maps
        f = lambda t: t + (n1 - o1)
    else:
        (o1, n1), (o2, n2) = maps
        if o1 == o2:
            die("sync points need different OLD times")
        slope = Fraction(n2 - n1, o2 - o1)
        f = lambda t: math.floor(n1 + (t - o1) * slope + Fraction(1, 2))
    text = open(src, encoding="utf-8-sig").read().replace("\r\n", "\n").replace("\r", "\n")
    blocks, cur = [], []
    for line in text.split("\n"):
        if line.strip() == "":
            if cur:
                blocks.append(cur)
                cur = []
        else:
            cur.append(line.rstrip())
    if cur:
        blocks.append(cur)
    cues = []
    for k, b in enumerate(blocks):
        if len(b) < 3 or "-->" not in b[1]:
            continue
        left, right = b[1].split("-->", 1)
        start = parse_ts(left.strip(), strict=False)
        end = parse_ts(right.split()[0], strict=False)
        s2, e2 = f(start), f(end)
        if e2 <= 0:
            continue
        cues.append((max(0, s2), k, e2, b[2:]))
    with open(dst, "w", encoding="utf-8", newline="\n") as out:
        for n, (s2, _, e2, lines) in enumerate(cues, 1):
            out.write(f"{n}\n{fmt(s2)} --> {fmt(e2)}\n" + "\n".join(lines) + "\n\n")


main()
PY
