#!/usr/bin/env python3
"""sheet.py - evaluate a small integer spreadsheet.

    python3 sheet.py SHEETFILE

Each non-blank line of SHEETFILE is  CELL: CONTENT  where CONTENT is an
integer literal or a formula starting with '='.  Prints  CELL VALUE  for
every defined cell, in input order.
"""
import re
import sys

sys.setrecursionlimit(20000)

ERRORS = ("#PARSE", "#DIV0", "#CYCLE")
CELL_RE = re.compile(r"([A-Z]+)([0-9]+)$")
INT_RE = re.compile(r"-?[0-9]+$")
TOKEN_RE = re.compile(r"\s*(?:([0-9]+)|([A-Z]+[0-9]+)|([A-Z]+)|(.))")
FUNCS = ("SUM", "MIN", "MAX")


class SheetError(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


# ------------------------------------------------------------ cell names

def col_number(letters):
    """A -> 1, Z -> 26, AA -> 27, ..."""
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n


def col_letters(n):
    s = ""
    while n > 0:
        n, r = divmod(n, 26)
        s = chr(ord("A") + r - 1) + s
    return s


def split_cell(name):
    """'AB12' -> (28, 12); None if it is not a cell name"""
    m = CELL_RE.match(name)
    if not m or int(m.group(2)) == 0:
        return None
    return (col_number(m.group(1)), int(m.group(2)))


def parse_cell(name):
    """canonical cell name ('B007' -> 'B7'), or None"""
    c = split_cell(name)
    if c is None:
        return None
    return col_letters(c[0]) + str(c[1])


# ------------------------------------------------------------ parser

def tokenize(text):
    toks = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        num, ref, name, op = m.groups()
        if num is not None:
            toks.append(("num", int(num)))
        elif ref is not None:
            c = parse_cell(ref)
            if c is None:
                raise SheetError("#PARSE")
            toks.append(("ref", c))
        elif name is not None:
            toks.append(("name", name))
        elif op is not None:
            if op not in "+-*/(),:":
                raise SheetError("#PARSE")
            toks.append(("op", op))
        pos = m.end()
    toks.append(("end", None))
    return toks


class Parser:
    def __init__(self, text):
        self.toks = tokenize(text)
        self.i = 0

    def peek(self):
        return self.toks[self.i]

    def take(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def expect(self, op):
        t = self.take()
        if t != ("op", op):
            raise SheetError("#PARSE")

    def parse(self):
        e = self.expr()
        if self.peek()[0] != "end":
            raise SheetError("#PARSE")
        return e

    def expr(self):
        left = self.term()
        if self.peek() in (("op", "+"), ("op", "-")):
            op = self.take()[1]
            return ("bin", op, left, self.expr())
        return left

    def term(self):
        left = self.unary()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.take()[1]
            left = ("bin", op, left, self.unary())
        return left

    def unary(self):
        if self.peek() == ("op", "-"):
            self.take()
            return ("neg", self.unary())
        return self.primary()

    def primary(self):
        kind, val = self.take()
        if kind == "num":
            return ("num", val)
        if kind == "ref":
            return ("ref", val)
        if kind == "op" and val == "(":
            e = self.expr()
            self.expect(")")
            return e
        if kind == "name" and val in FUNCS:
            self.expect("(")
            args = [self.arg()]
            while self.peek() == ("op", ","):
                self.take()
                args.append(self.arg())
            self.expect(")")
            return ("func", val, args)
        raise SheetError("#PARSE")

    def arg(self):
        kind, val = self.peek()
        if kind == "ref" and self.toks[self.i + 1] == ("op", ":"):
            self.take()
            self.take()
            k2, v2 = self.take()
            if k2 != "ref":
                raise SheetError("#PARSE")
            return ("range", val, v2)
        return self.expr()


def references(node, out):
    kind = node[0]
    if kind == "ref":
        out.append(node[1])
    elif kind == "neg":
        references(node[1], out)
    elif kind == "bin":
        references(node[2], out)
        references(node[3], out)
    elif kind == "func":
        for a in node[2]:
            references(a, out)
    elif kind == "range":
        out.extend(range_cells(node[1], node[2]))
    return out


def range_cells(a, b):
    """names of the cells of the rectangle with corners a and b, row by row"""
    (ca, ra), (cb, rb) = split_cell(a), split_cell(b)
    c1, c2 = sorted((ca, cb))
    r1, r2 = ra, rb
    return [col_letters(c) + str(r) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]


# ------------------------------------------------------------ evaluation

def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


class Sheet:
    def __init__(self):
        self.order = []
        self.content = {}
        self.ast = {}
        self.values = {}
        self.visiting = set()

    def load(self, lines):
        for line in lines:
            if not line.strip():
                continue
            name, _, content = line.partition(":")
            cell = parse_cell(name.strip())
            if cell is None:
                continue
            if cell not in self.content:
                self.order.append(cell)
            self.content[cell] = content.strip()
        for cell in self.order:
            text = self.content[cell]
            try:
                if text.startswith("="):
                    self.ast[cell] = Parser(text[1:]).parse()
                elif INT_RE.match(text):
                    self.ast[cell] = ("num", int(text))
                else:
                    raise SheetError("#PARSE")
            except SheetError as e:
                self.ast[cell] = ("error", e.code)

    def value(self, cell):
        if cell not in self.ast:
            return 0
        if cell not in self.values:
            if cell in self.visiting:
                raise SheetError("#CYCLE")
            self.visiting.add(cell)
            try:
                self.values[cell] = self.eval(self.ast[cell])
            except SheetError as e:
                self.values[cell] = e
            finally:
                self.visiting.discard(cell)
        v = self.values[cell]
        if isinstance(v, SheetError):
            raise v
        return v

    def eval(self, node):
        kind = node[0]
        if kind == "num":
            return node[1]
        if kind == "error":
            raise SheetError(node[1])
        if kind == "ref":
            return self.value(node[1])
        if kind == "neg":
            return -self.eval(node[1])
        if kind == "bin":
            a = self.eval(node[2])
            b = self.eval(node[3])
            op = node[1]
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if b == 0:
                raise SheetError("#DIV0")
            return a // b
        if kind == "func":
            vals = []
            for a in node[2]:
                if a[0] == "range":
                    vals.extend(self.value(c) for c in range_cells(a[1], a[2]))
                else:
                    vals.append(self.eval(a))
            if not vals:
                return 0
            return {"SUM": sum, "MIN": min, "MAX": max}[node[1]](vals)
        raise SheetError("#PARSE")

    def results(self):
        out = []
        for cell in self.order:
            try:
                v = str(self.value(cell))
            except SheetError as e:
                v = e.code
            out.append(f"{cell} {v}")
        return out


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    sheet = Sheet()
    with open(argv[1], encoding="utf-8") as f:
        sheet.load(f)
    for line in sheet.results():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
