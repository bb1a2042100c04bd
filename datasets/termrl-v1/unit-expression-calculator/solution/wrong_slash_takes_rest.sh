#!/bin/bash
# Mistake: treats everything after '/' as the denominator (kg/m*s read as kg/(m*s)).
set -euo pipefail
cat > /app/calc.py <<'PY'
import argparse
import re
import sys

BASE = ["m", "kg", "s", "A", "K", "mol"]
PREFIX = {"n": 1e-9, "u": 1e-6, "m": 1e-3, "c": 1e-2, "k": 1e3, "M": 1e6, "G": 1e9}
TOKEN = re.compile(r"\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_]+)|(\^|\*|/|\+|-|\(|\)))")


class CalcError(Exception):
    pass


class Q:
    def __init__(self, v, dims):
        self.v, self.dims = v, tuple(dims)

    def mul(self, o, sign=1):
        return Q(self.v * o.v if sign > 0 else self.v / o.v, [a + sign * b for a, b in zip(self.dims, o.dims)])

    def pow(self, e):
        return Q(self.v ** e, [a * e for a in self.dims])


def tokenize(text):
    pos, out = 0, []
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise CalcError(f"syntax error at {text[pos:]!r}")
        if m.group(1):
            out.append(("num", float(m.group(1))))
        elif m.group(2):
            out.append(("name", m.group(2)))
        else:
            out.append(("op", m.group(3)))
        pos = m.end()
    return out


class Parser:
    def __init__(self, text, units):
        self.t, self.i, self.units = tokenize(text), 0, units

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else (None, None)

    def take(self):
        tok = self.peek()
        self.i += 1
        return tok

    def parse(self):
        if not self.t:
            raise CalcError("empty expression")
        q = self.sum()
        if self.i != len(self.t):
            raise CalcError(f"unexpected {self.peek()[1]!r}")
        return q

    def sum(self):
        q = self.neg()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            r = self.neg()
            if r.dims != q.dims:
                raise CalcError("dimension mismatch in " + op)
            q = Q(q.v + r.v if op == "+" else q.v - r.v, q.dims)
        return q

    def neg(self):
        if self.peek() == ("op", "-"):
            self.take()
            q = self.neg()
            return Q(-q.v, q.dims)
        return self.product()

    def product(self):
        q = self.power()
        while True:
            k, v = self.peek()
            if (k, v) == ("op", "*"):
                self.take()
                q = q.mul(self.power())
            elif (k, v) == ("op", "/"):
                self.take()
                q = q.mul(self.product(), -1)   # everything after '/' is the denominator
            elif k in ("num", "name") or (k, v) == ("op", "("):
                q = q.mul(self.power())
            else:
                return q

    def power(self):
        q = self.atom()
        if self.peek() == ("op", "^"):
            self.take()
            sign = 1
            if self.peek() == ("op", "-"):
                self.take()
                sign = -1
            k, v = self.take()
            if k != "num" or v != int(v):
                raise CalcError("exponent must be an integer")
            q = q.pow(sign * int(v))
        return q

    def atom(self):
        k, v = self.take()
        if k == "num":
            return Q(v, [0] * 6)
        if k == "name":
            return lookup(v, self.units)
        if (k, v) == ("op", "("):
            q = self.sum()
            if self.take() != ("op", ")"):
                raise CalcError("missing )")
            return q
        raise CalcError(f"unexpected {v!r}")


def lookup(name, units):
    if name in units:
        return units[name]
    if len(name) > 1 and name[0] in PREFIX and name[1:] in units:
        u = units[name[1:]]
        return Q(PREFIX[name[0]] * u.v, u.dims)
    raise CalcError(f"unknown unit {name!r}")


def load_units(path="/app/units.txt"):
    units = {b: Q(1.0, [1 if i == j else 0 for j in range(6)]) for i, b in enumerate(BASE)}
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, expr = (x.strip() for x in line.split("=", 1))
            units[name] = Parser(expr, units).parse()
    return units


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("expr")
    ap.add_argument("--to")
    a = ap.parse_args()
    try:
        units = load_units()
        q = Parser(a.expr, units).parse()
        if a.to is not None:
            t = Parser(a.to, units).parse()
            if t.dims != q.dims:
                raise CalcError("cannot convert: dimensions differ")
            print(repr(q.v / t.v))
        else:
            parts = [repr(q.v)] + [b if e == 1 else f"{b}^{e}" for b, e in zip(BASE, q.dims) if e]
            print(" ".join(parts))
    except (CalcError, ZeroDivisionError, OverflowError) as e:
        print(f"calc: {e}", file=sys.stderr)
        sys.exit(2)


main()
PY
