#!/bin/bash
# Mistake: strips the '/ comment' before parsing the value, cutting strings that contain a slash.
set -euo pipefail
cat > /app/fitsinfo.py <<'PY'
import json
import re
import sys

BLOCK = 2880
NUM_INT = re.compile(r"[+-]?\d+$")


def parse_string(text):
    """text starts with a quote; return (string value, rest after the closing quote)."""
    out, i = [], 1
    while i < len(text):
        c = text[i]
        if c == "'":
            if text[i + 1:i + 2] == "'":
                out.append("'")
                i += 2
                continue
            return "".join(out).rstrip(" "), text[i + 1:]
        out.append(c)
        i += 1
    return "".join(out).rstrip(" "), ""


def parse_value(text):
    s = text.split("/", 1)[0].lstrip(" ")
    if s.startswith("'"):
        return parse_string(s)[0]
    s = s.split("/", 1)[0].strip()
    if s == "":
        return None
    if s == "T":
        return True
    if s == "F":
        return False
    if NUM_INT.match(s):
        return int(s)
    return float(s.replace("D", "E").replace("d", "e"))


def read_header(buf, pos):
    cards = []
    while True:
        if pos + BLOCK > len(buf):
            sys.exit(f"truncated header at byte {pos}")
        block = buf[pos:pos + BLOCK].decode("ascii")
        pos += BLOCK
        done = False
        for k in range(36):
            card = block[80 * k:80 * k + 80]
            if card[:8].rstrip() == "END":
                done = True
                break
            cards.append(card)
        if done:
            return cards, pos


def interpret(cards):
    values, comments, history = {}, [], []
    pending = None
    for card in cards:
        key = card[:8].rstrip()
        if key == "CONTINUE" and pending is not None:
            part = parse_string(card[10:].lstrip(" "))[0] if card[10:].lstrip(" ").startswith("'") else ""
            values[pending] = values[pending][:-1] + part
            pending = pending if part.endswith("&") else None
            continue
        pending = None
        if key == "HIERARCH":
            name, _, rest = card[8:].partition("=")
            key = " ".join(name.split())
            values[key] = parse_value(rest)
        elif key in ("COMMENT", "HISTORY"):
            (comments if key == "COMMENT" else history).append(card[8:].rstrip())
            continue
        elif key == "":
            continue
        elif card[8:10] == "= ":
            values[key] = parse_value(card[10:])
        else:
            continue
        if isinstance(values[key], str) and values[key].endswith("&"):
            pending = key
    return values, comments, history


def main():
    buf = open(sys.argv[1], "rb").read()
    pos, out = 0, []
    while pos < len(buf):
        start = pos
        cards, pos = read_header(buf, pos)
        values, comments, history = interpret(cards)
        naxis = values.get("NAXIS", 0)
        size = 0
        if naxis:
            prod = 1
            for i in range(1, naxis + 1):
                prod *= values[f"NAXIS{i}"]
            size = abs(values["BITPIX"]) // 8 * values.get("GCOUNT", 1) * (values.get("PCOUNT", 0) + prod)
        out.append({"type": "PRIMARY" if start == 0 else values.get("XTENSION"), "header_offset": start,
                    "data_offset": pos, "data_bytes": size, "cards": values,
                    "comment": comments, "history": history})
        pos += (size + BLOCK - 1) // BLOCK * BLOCK
    print(json.dumps(out))


main()
PY
