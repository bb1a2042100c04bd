#!/bin/bash
# Plausible but wrong: a block quote is filled as one paragraph, so lists and nested quotes inside it are merged.
set -euo pipefail
cat > /app/mdwrap <<'PY'
#!/usr/bin/env python3
"""Re-wrap Markdown to a display width: verbatim fences/headings/tables, recursive quotes, list items."""
import argparse
import re
import sys
import unicodedata

MARKER = re.compile(r"^(- |\* |\d{1,9}\. )")


def width(s):
    w = 0
    for c in s:
        if unicodedata.combining(c) or c == "\u200d":
            continue
        w += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return w


def words(text):
    out, cur, code = [], "", False
    for c in text:
        if c == "`":
            code = not code
        if c.isspace() and not code:
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += c
    if cur:
        out.append(cur)
    return out


def fill(lines, w):
    """Greedy fill of a block's raw lines; hard breaks after lines ending in two spaces."""
    segments, cur = [], []
    for line in lines:
        cur.append(line.strip())
        if line.rstrip("\n").endswith("  ") and line.strip():
            segments.append((" ".join(cur), True))
            cur = []
    if cur:
        segments.append((" ".join(cur), False))
    out = []
    for text, hard in segments:
        line = ""
        for word in words(text):
            if line and width(line) + 1 + width(word) <= w:
                line += " " + word
            else:
                if line:
                    out.append(line)
                line = word
        if line:
            out.append(line + ("  " if hard else ""))
        elif hard and out:
            out[-1] += "  "
    return out


def starts_block(line):
    return (not line.strip() or line.startswith(("```", "#", "|", ">")) or bool(MARKER.match(line)))


def wrap(lines, w):
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out += lines[i:j + 1]
            i = j + 1
        elif not line.strip():
            out.append("")
            i += 1
        elif line.startswith(("#", "|")):
            out.append(line)
            i += 1
        elif line.startswith(">"):
            j = i
            inner = []
            while j < len(lines) and lines[j].startswith(">"):
                s = lines[j][1:]
                inner.append(s[1:] if s.startswith(" ") else s)
                j += 1
            out += ["> " + x for x in fill(inner, w - 2)]  # a quote is one paragraph
            i = j
        elif MARKER.match(line):
            marker = MARKER.match(line).group(1)
            body = [line[len(marker):]]
            j = i + 1
            while j < len(lines) and lines[j].startswith((" ", "\t")) and lines[j].strip():
                body.append(lines[j])
                j += 1
            filled = fill(body, w - len(marker))
            out += [(marker if k == 0 else " " * len(marker)) + x for k, x in enumerate(filled)]
            i = j
        else:
            j = i + 1
            while j < len(lines) and not starts_block(lines[j]):
                j += 1
            out += fill(lines[i:j], w)
            i = j
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--width", type=int, default=72)
    ap.add_argument("file")
    args = ap.parse_args()
    if args.width < 20:
        ap.error("--width must be at least 20")
    with open(args.file, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    sys.stdout.write("".join(x + "\n" for x in wrap(lines, args.width)))


main()
PY
chmod +x /app/mdwrap
