#!/bin/bash
set -euo pipefail
cat > /app/isotopes.py <<'PY'
import argparse
import re
import sys
from collections import Counter

PROTON = 1.007276466812


def fail(msg):
    print(f"isotopes: {msg}", file=sys.stderr)
    sys.exit(2)


def load_table(path="/app/isotopes.tsv"):
    raw = {}
    with open(path) as fh:
        for line in fh:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            el, a, m, ab = line.split()
            raw.setdefault(el, []).append((int(a), float(m), float(ab)))
    table = {}
    for el, isos in raw.items():
        tot = sum(ab for _, _, ab in isos)
        table[el] = [(a, m, ab / tot) for a, m, ab in isos]
    return table


class Parser:
    def __init__(self, text, table):
        self.s, self.i, self.table = text, 0, table

    def peek(self):
        return self.s[self.i] if self.i < len(self.s) else ""

    def number(self):
        m = re.compile(r"\d+").match(self.s, self.i)
        if not m:
            return None
        self.i = m.end()
        return int(m.group())

    def seq(self, closer):
        """atoms until `closer` (or end); returns Counter of keys: element or (element, A)."""
        c = Counter()
        while True:
            ch = self.peek()
            if ch == closer:
                return c
            if ch == "":
                fail("unbalanced brackets") if closer else None
                return c
            if ch == "[" and self.s[self.i + 1:self.i + 2].isdigit():
                m = re.compile(r"\[(\d+)([A-Z][a-z]?)\]").match(self.s, self.i)
                if not m:
                    fail(f"bad isotope label at {self.i}")
                a, el = int(m.group(1)), m.group(2)
                if el not in self.table or a not in [x[0] for x in self.table[el]]:
                    fail(f"isotope {a}{el} not in the table")
                self.i = m.end()
                n = self.number()
                c[(el, a)] += 1 if n is None else n
            elif ch in "([":
                close = ")" if ch == "(" else "]"
                self.i += 1
                inner = self.seq(close)
                if self.peek() != close:
                    fail("unbalanced brackets")
                self.i += 1
                if not inner:
                    fail("empty group")
                n = self.number()
                for k, v in inner.items():
                    c[k] += v * (1 if n is None else n)
            elif ch.isupper():
                el = ch
                if self.s[self.i + 1:self.i + 2].islower():
                    el += self.s[self.i + 1]
                if el not in self.table:
                    fail(f"unknown element {el}")
                self.i += len(el)
                n = self.number()
                c[el] += 1 if n is None else n
            else:
                fail(f"unexpected {ch!r} at position {self.i}")


def parse(text, table):
    if not text:
        fail("empty formula")
    total = Counter()
    for part in text.split("."):
        p = Parser(part, table)
        mult = p.number()
        atoms = p.seq("")
        if p.i != len(part):
            fail(f"unexpected {part[p.i]!r}")
        if not atoms:
            fail("empty formula part")
        for k, v in atoms.items():
            total[k] += v * (1 if mult is None else mult)
    return total


CUT = 1e-30


def convolve(x, y):
    out = {}
    for a, (p, pm) in x.items():
        for b, (q, qm) in y.items():
            r = p * q
            if r < CUT:
                continue
            o = out.get(a + b)
            val = (r, pm * q + qm * p)  # (prob, prob*mass)
            out[a + b] = val if o is None else (o[0] + val[0], o[1] + val[1])
    return out


def power(base, n):
    result = {0: (1.0, 0.0)}
    while n:
        if n & 1:
            result = convolve(result, base)
        n >>= 1
        if n:
            base = convolve(base, base)
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("formula")
    ap.add_argument("--charge", type=int, default=None)
    ap.add_argument("--min-percent", type=float, default=0.01)
    o = ap.parse_args()
    if o.charge == 0:
        fail("--charge must be non-zero")
    table = load_table()
    atoms = parse(o.formula, table)
    mono = avg = 0.0
    dist = {0: (1.0, 0.0)}
    for k, n in atoms.items():
        if isinstance(k, tuple):
            el, a = k
            m = next(x[1] for x in table[el] if x[0] == a)
            mono += n * m
            avg += n * m
            dist = convolve(dist, {n * a: (1.0, n * m)})
            continue
        isos = table[k]
        mono += n * max(isos, key=lambda x: x[2])[1]
        avg += n * sum(m * ab for _, m, ab in isos)
        base = {a: (ab, ab * m) for a, m, ab in isos}
        dist = convolve(dist, power(base, n))

    def conv(m):
        return m if o.charge is None else (m + o.charge * PROTON) / abs(o.charge)

    out = [f"mono {conv(mono)!r}", f"average {conv(avg)!r}"]
    for a in sorted(dist):
        p, pm = dist[a]
        if 100 * p >= o.min_percent:
            out.append(f"{a} {conv(pm / p)!r} {100 * p!r}")
    print("\n".join(out))


main()
PY
