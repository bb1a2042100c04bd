#!/bin/bash
# Treats ^ as left-associative and does not allow a signed exponent.
set -euo pipefail
cat > /app/calc.py <<'PY'
import re
import sys
from fractions import Fraction


class CalcError(Exception):
    pass


TOKEN = re.compile(r"\s*(?:(\d+\.?\d*|\.\d+)|([A-Za-z_]\w*)|(.))")


def tokenize(s):
    toks = []
    pos = 0
    s = s.rstrip()
    while pos < len(s):
        m = TOKEN.match(s, pos)
        if not m:
            break
        pos = m.end()
        num, name, op = m.groups()
        if num is not None:
            toks.append(("num", Fraction(num)))
        elif name is not None:
            toks.append(("name", name))
        elif op is not None:
            if op not in "+-*/%^(),":
                raise CalcError(f"bad character {op!r}")
            toks.append(("op", op))
    toks.append(("end", None))
    return toks


class Parser:
    def __init__(self, toks):
        self.t = toks
        self.i = 0

    def peek(self):
        return self.t[self.i]

    def take(self, kind=None, val=None):
        tok = self.t[self.i]
        if kind and tok[0] != kind or val is not None and tok[1] != val:
            raise CalcError(f"unexpected {tok[1]!r}")
        self.i += 1
        return tok

    def parse(self):
        v = self.expr()
        if self.peek()[0] != "end":
            raise CalcError(f"unexpected {self.peek()[1]!r}")
        return v

    def expr(self):
        v = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            r = self.term()
            v = v + r if op == "+" else v - r
        return v

    def term(self):
        v = self.unary()
        while self.peek() in (("op", "*"), ("op", "/"), ("op", "%")):
            op = self.take()[1]
            r = self.unary()
            if op == "*":
                v = v * r
            else:
                if r == 0:
                    raise CalcError("division by zero")
                v = v / r if op == "/" else v - r * (v / r).__floor__()
        return v

    def unary(self):
        if self.peek() in (("op", "-"), ("op", "+")):
            op = self.take()[1]
            v = self.unary()
            return -v if op == "-" else v
        return self.power()

    def power(self):
        base = self.atom()
        while self.peek() == ("op", "^"):
            self.take()
            e = self.atom()
            if e.denominator != 1:
                raise CalcError("non-integer exponent")
            if base == 0 and e < 0:
                raise CalcError("zero to negative power")
            base = base ** int(e)
        return base

    def atom(self):
        tok = self.peek()
        if tok[0] == "num":
            self.take()
            return tok[1]
        if tok == ("op", "("):
            self.take()
            v = self.expr()
            self.take("op", ")")
            return v
        if tok[0] == "name":
            self.take()
            name = tok[1]
            if name not in ("abs", "min", "max"):
                raise CalcError(f"unknown name {name}")
            self.take("op", "(")
            args = [self.expr()]
            while self.peek() == ("op", ","):
                self.take()
                args.append(self.expr())
            self.take("op", ")")
            if name == "abs":
                if len(args) != 1:
                    raise CalcError("abs takes one argument")
                return abs(args[0])
            return min(args) if name == "min" else max(args)
        raise CalcError(f"unexpected {tok[1]!r}")


def fmt(v):
    if v.denominator == 1:
        return str(v.numerator)
    scaled = abs(v) * 10 ** 6
    q = int(scaled)
    if scaled - q >= Fraction(1, 2):
        q += 1
    sign = "-" if v < 0 and q != 0 else ""
    ip, fp = divmod(q, 10 ** 6)
    if fp == 0:
        return sign + str(ip)
    return sign + f"{ip}.{fp:06d}".rstrip("0")


def main():
    if len(sys.argv) != 2:
        print("error: usage: calc.py EXPRESSION", file=sys.stderr)
        sys.exit(1)
    try:
        print(fmt(Parser(tokenize(sys.argv[1])).parse()))
    except (CalcError, ZeroDivisionError, OverflowError) as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)


main()
PY
