#!/bin/bash
set -euo pipefail
cat > /app/semfilter.py <<'PY'
"""semfilter: print the versions that satisfy a semver range."""
import re

NUM = r"(?:0|[1-9][0-9]*)"
IDENT = r"(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"
VERSION = re.compile(rf"({NUM})\.({NUM})\.({NUM})(?:-({IDENT}(?:\.{IDENT})*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?")
XR = r"(?:0|[1-9][0-9]*|[xX*])"
PARTIAL = re.compile(rf"({XR})(?:\.({XR})(?:\.({XR})(?:-({IDENT}(?:\.{IDENT})*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?)?)?")


class RangeError(Exception):
    pass


def parse_version(s):
    m = VERSION.fullmatch(s)
    if not m:
        return None
    pre = tuple(int(p) if p.isdigit() else p for p in m.group(4).split(".")) if m.group(4) else ()
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)), pre)


def pre_key(pre):
    if not pre:
        return (1,)
    return (0, tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in pre))


def key(v):
    return (v[0], v[1], v[2], pre_key(v[3]))


def parse_partial(s):
    m = PARTIAL.fullmatch(s)
    if not m:
        raise RangeError(s)
    parts = []
    for g in m.group(1, 2, 3):
        if g is None or g in "xX*":
            break
        parts.append(int(g))
    pre = tuple(int(p) if p.isdigit() else p for p in m.group(4).split(".")) if m.group(4) else ()
    if pre and len(parts) < 3:
        raise RangeError(s)
    return parts, pre


def full(parts, pre=()):
    p = parts + [0] * (3 - len(parts))
    return (p[0], p[1], p[2], pre)


def bump(parts):
    """Smallest version above every version matching the partial `parts` (len < 3, >= 1)."""
    p = list(parts)
    p[-1] += 1
    return full(p)


NONE = [("<", (0, 0, 0, ()))]


def desugar(op, parts, pre):
    if op in ("", "="):
        if not parts:
            return []
        if len(parts) == 3:
            return [("=", full(parts, pre))]
        return [(">=", full(parts)), ("<", bump(parts))]
    if op == ">":
        if not parts:
            return NONE
        if len(parts) == 3:
            return [(">", full(parts, pre))]
        return [(">=", bump(parts))]
    if op == ">=":
        return [(">=", full(parts, pre))] if parts else []
    if op == "<":
        return [("<", full(parts, pre))] if parts else NONE
    if op == "<=":
        if not parts:
            return []
        if len(parts) == 3:
            return [("<=", full(parts, pre))]
        return [("<", bump(parts))]
    if op == "~":
        if not parts:
            return []
        hi = bump(parts[:2]) if len(parts) >= 2 else bump(parts)
        return [(">=", full(parts, pre)), ("<", hi)]
    if op == "^":
        if not parts:
            return []
        p = parts + [None] * (3 - len(parts))
        if p[0] != 0:
            hi = bump(parts[:1])
        elif p[1] is None:
            hi = (1, 0, 0, ())
        elif p[1] != 0:
            hi = bump(parts[:2])
        elif p[2] is None:
            hi = (0, 1, 0, ())
        else:
            hi = (0, 0, p[2] + 1, ())
        return [(">=", full(parts, pre)), ("<", hi)]
    raise RangeError(op)


OPS = ("<=", ">=", "<", ">", "=", "~", "^")


def parse_set(text):
    toks = text.split()
    if len(toks) == 3 and toks[1] == "-":
        lo_parts, lo_pre = parse_partial(toks[0])
        hi_parts, hi_pre = parse_partial(toks[2])
        comps = [(">=", full(lo_parts, lo_pre))] if lo_parts else []
        if len(hi_parts) == 3:
            comps.append(("<=", full(hi_parts, hi_pre)))
        elif hi_parts:
            comps.append(("<", bump(hi_parts)))
        return comps
    comps = []
    i = 0
    while i < len(toks):
        t = toks[i]
        i += 1
        op = next((o for o in OPS if t.startswith(o)), "")
        rest = t[len(op):]
        if op and rest == "":
            if i >= len(toks):
                raise RangeError(t)
            rest = toks[i]
            i += 1
        parts, pre = parse_partial(rest)
        comps.extend(desugar(op, parts, pre))
    return comps


def parse_range(text):
    return [parse_set(s) for s in text.split("||")]


def cmp_ok(v, op, c):
    a, b = key(v), key(c)
    return {"=": a == b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def satisfies(v, sets):
    for comps in sets:
        if not all(cmp_ok(v, op, c) for op, c in comps):
            continue
        if v[3] and not any(c[3] and c[:3] == v[:3] for _, c in comps):
            continue
        return True
    return False


def filter_versions(rng, lines):
    sets = parse_range(rng)
    good = []
    for ln in lines:
        s = ln.strip()
        v = parse_version(s)
        if v is not None and satisfies(v, sets):
            good.append((key(v), len(good), s))
    good.sort()
    return [s for _, _, s in good]


def main(argv):
    import sys
    if len(argv) != 2:
        print("usage: semfilter.py RANGE < versions", file=sys.stderr)
        return 2
    try:
        out = filter_versions(argv[1], sys.stdin.read().split("\n"))
    except RangeError as e:
        print("error: invalid range near %r" % str(e), file=sys.stderr)
        return 2
    for s in out:
        print(s)
    return 0 if out else 1


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv))
PY
