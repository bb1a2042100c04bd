#!/bin/bash
set -euo pipefail
cat > /app/wrap.py <<'PY'
import sys


def usage(msg):
    sys.stderr.write(msg + "\n")
    sys.exit(2)


def parse_args(argv):
    width, justify = None, False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--justify":
            justify = True
        elif a == "--width":
            i += 1
            if i >= len(argv):
                usage("--width needs a value")
            width = argv[i]
        elif a.startswith("--width="):
            width = a.split("=", 1)[1]
        else:
            usage("unknown argument: " + a)
        i += 1
    if width is None:
        usage("--width is required")
    try:
        width = int(width)
    except ValueError:
        usage("--width must be an integer")
    if width < 10:
        usage("--width must be at least 10")
    return width, justify


def fill(words, area):
    lines, cur = [], []
    for w in words:
        if len(w) > area:
            if cur:
                lines.append(cur)
                cur = []
            while len(w) > area:
                lines.append([w[:area]])
                w = w[area:]
            cur = [w]
            continue
        if not cur:
            cur = [w]
        elif len(" ".join(cur)) + 1 + len(w) <= area:
            cur.append(w)
        else:
            lines.append(cur)
            cur = [w]
    if cur:
        lines.append(cur)
    return lines


def render(line, area, justify):
    if not justify or len(line) == 1:
        return " ".join(line)
    gaps = len(line) - 1
    extra = area - sum(map(len, line)) - gaps
    q, r = divmod(extra, gaps)
    out = line[0]
    for k, w in enumerate(line[1:]):
        out += " " * (1 + q + (1 if k >= gaps - r else 0)) + w
    return out


def main():
    width, justify = parse_args(sys.argv[1:])
    text = sys.stdin.read()
    paras, cur = [], []
    for ln in text.split("\n"):
        if ln.strip() == "":
            if cur:
                paras.append(cur)
                cur = []
        else:
            cur.append(ln)
    if cur:
        paras.append(cur)
    blocks = []
    for p in paras:
        words = " ".join(p).split()
        bullet = words[0] == "-"
        if bullet:
            words = words[1:]
        area = width - 2 if bullet else width
        lines = fill(words, area)
        out = []
        for i, line in enumerate(lines):
            s = render(line, area, justify and i < len(lines) - 1)
            if bullet:
                s = ("- " if i == 0 else "  ") + s
            out.append(s)
        blocks.append("\n".join(out) + "\n")
    sys.stdout.write("\n".join(blocks))


main()
PY
