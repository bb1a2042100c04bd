#!/usr/bin/env python3
"""semrange: npm-style semver ranges (reference)."""
import re
import sys

NUM = r"(?:0|[1-9]\d*)"
IDENT = r"(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)"
PRE = rf"(?:-({IDENT}(?:\.{IDENT})*))?"
BUILD = r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
FULL = re.compile(rf"^v?({NUM})\.({NUM})\.({NUM}){PRE}{BUILD}$")
XR = r"(?:0|[1-9]\d*|[xX*])"
PARTIAL = re.compile(rf"^v?({XR})(?:\.({XR})(?:\.({XR}){PRE}{BUILD})?)?$")


class Invalid(Exception):
    pass


def parse_version(s):
    m = FULL.match(s.strip())
    if not m:
        return None
    pre = tuple(int(x) if x.isdigit() else x for x in m.group(4).split(".")) if m.group(4) else ()
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)), pre)


def pre_key(pre):
    # a release sorts after all its prereleases; numeric identifiers before alphanumeric ones
    if not pre:
        return (1,)
    return (0, tuple((0, x, "") if isinstance(x, int) else (1, 0, x) for x in pre))


def key(v):
    return (v[0], v[1], v[2], pre_key(v[3]))


def is_x(p):
    return p is None or p in ("x", "X", "*")


def partial(s):
    m = PARTIAL.match(s)
    if not m:
        raise Invalid(s)
    parts = [m.group(1), m.group(2), m.group(3)]
    nums = []
    for p in parts:
        if is_x(p):
            break
        nums.append(int(p))
    if m.group(4) and len(nums) < 3:
        raise Invalid(s)
    pre = tuple(int(x) if x.isdigit() else x for x in m.group(4).split(".")) if m.group(4) else ()
    return nums, pre


def v(a, b, c, pre=()):
    return (a, b, c, pre)


ZERO = (0,)  # the lowest prerelease: "-0"


def bump(nums):
    """upper bound (exclusive, as X.Y.Z-0) of a partial with len(nums) < 3"""
    if len(nums) == 0:
        return None
    if len(nums) == 1:
        return v(nums[0] + 1, 0, 0, ZERO)
    return v(nums[0], nums[1] + 1, 0, ZERO)


def lower(nums, pre=()):
    n = nums + [0] * (3 - len(nums))
    return v(n[0], n[1], n[2], pre if len(nums) == 3 else ())


def xrange(nums, pre):
    if len(nums) == 3:
        return [("=", lower(nums, pre))]
    out = [(">=", lower(nums))]
    up = bump(nums)
    if up:
        out.append(("<", up))
    return out


def tilde(nums, pre):
    if not nums:
        return [(">=", v(0, 0, 0))]
    lo = lower(nums, pre)
    if len(nums) == 1:
        return [(">=", lo), ("<", v(nums[0] + 1, 0, 0, ZERO))]
    return [(">=", lo), ("<", v(nums[0], nums[1] + 1, 0, ZERO))]


def caret(nums, pre):
    if not nums:
        return [(">=", v(0, 0, 0))]
    lo = lower(nums, pre)
    M = nums[0]
    if M != 0 or len(nums) == 1:
        return [(">=", lo), ("<", v(M + 1, 0, 0, ZERO))]
    m = nums[1]
    if m != 0 or len(nums) == 2:
        return [(">=", lo), ("<", v(0, m + 1, 0, ZERO))]
    return [(">=", lo), ("<", v(0, 0, nums[2] + 1, ZERO))]


def primitive(op, nums, pre):
    if not nums:
        return [(">=", v(0, 0, 0))] if op in (">=", "<=", "") else ([("<", v(0, 0, 0, ZERO))] if op in ("<", ">") else [])
    if len(nums) == 3:
        return [(op, lower(nums, pre))]
    if op == ">":
        b = bump(nums)
        return [(">=", v(b[0], b[1], b[2]))]
    if op == ">=":
        return [(">=", lower(nums))]
    if op == "<":
        return [("<", v(*lower(nums)[:3], ZERO))]
    if op == "<=":
        return [("<", bump(nums))]
    return xrange(nums, pre)


def parse_set(s):
    s = s.strip()
    m = re.match(r"^(\S+)\s+-\s+(\S+)$", s)
    if m:
        ln, lp = partial(m.group(1))
        hn, hp = partial(m.group(2))
        out = [(">=", lower(ln, lp))] if ln else []
        if len(hn) == 3:
            out.append(("<=", lower(hn, hp)))
        elif hn:
            out.append(("<", bump(hn)))
        return out
    s = re.sub(r"(<=|>=|<|>|=|~>|~|\^)\s+", r"\1", s)
    out = []
    for tok in s.split():
        m = re.match(r"^(<=|>=|<|>|=|~>|~|\^)?(.*)$", tok)
        op, rest = m.group(1) or "", m.group(2)
        nums, pre = partial(rest)
        if op in ("~", "~>"):
            out += tilde(nums, pre)
        elif op == "^":
            out += caret(nums, pre)
        elif op == "" or op == "=":
            out += xrange(nums, pre) if op == "" else primitive("=", nums, pre)
        else:
            out += primitive(op, nums, pre)
    if not out:
        out = [(">=", v(0, 0, 0))]
    return out


def parse_range(r):
    return [parse_set(part) for part in r.split("||")]


def cmp_ok(ver, op, b):
    a, c = key(ver), key(b)
    return {"=": a == c, "<": a < c, "<=": a <= c, ">": a > c, ">=": a >= c}[op]


def satisfies(ver, rng):
    for cset in rng:
        if not all(cmp_ok(ver, op, b) for op, b in cset):
            continue
        if ver[3]:
            if not any(b[3] and b[:3] == ver[:3] for op, b in cset):
                continue
        return True
    return False


def main(argv):
    if len(argv) != 2 or argv[0] not in ("test", "max"):
        print("usage: semrange test|max FILE", file=sys.stderr)
        return 2
    try:
        lines = open(argv[1], encoding="utf-8").read().splitlines()
    except OSError as e:
        print(f"semrange: {e}", file=sys.stderr)
        return 2
    out = []
    for line in lines:
        left, _, right = line.partition("\t")
        if argv[0] == "test":
            ver = parse_version(left)
            try:
                rng = parse_range(right)
            except Invalid:
                rng = None
            out.append("invalid" if ver is None or rng is None else ("true" if satisfies(ver, rng) else "false"))
        else:
            try:
                rng = parse_range(left)
            except Invalid:
                out.append("invalid")
                continue
            best = None
            for cand in right.split():
                ver = parse_version(cand)
                if ver is not None and satisfies(ver, rng) and (best is None or key(ver) > key(best[0])):
                    best = (ver, cand)
            out.append(best[1] if best else "none")
    sys.stdout.write("".join(x + "\n" for x in out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
