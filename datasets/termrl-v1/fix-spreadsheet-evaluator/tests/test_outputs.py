import os
import random
import subprocess
import tempfile

import pytest

SHEET = os.environ.get("SHEET_PY", "/app/sheet/sheet.py")

# ------------------------------------------------------------ reference
import re as _re

_TOK = _re.compile(r"\s*(?:(\d+)|([A-Z]+)(\d+)|([A-Z]+)|(\S))")


class _Err(Exception):
    pass


def _col(s):
    n = 0
    for ch in s:
        n = n * 26 + ord(ch) - 64
    return n


def _name(c, r):
    s = ""
    while c:
        c, k = divmod(c - 1, 26)
        s = chr(65 + k) + s
    return f"{s}{r}"


def _cell(text):
    m = _re.fullmatch(r"([A-Z]+)(\d+)", text)
    if not m or int(m.group(2)) < 1:
        return None
    return (_col(m.group(1)), int(m.group(2)))


def _lex(s):
    out, pos, s = [], 0, s.rstrip()
    while pos < len(s):
        m = _TOK.match(s, pos)
        if m is None:
            raise _Err("#PARSE")
        n, cl, rw, nm, op = m.groups()
        if n:
            out.append(("n", int(n)))
        elif cl:
            if int(rw) < 1:
                raise _Err("#PARSE")
            out.append(("c", (_col(cl), int(rw))))
        elif nm:
            out.append(("f", nm))
        else:
            if op not in "+-*/(),:":
                raise _Err("#PARSE")
            out.append(("o", op))
        pos = m.end()
    return out + [("$", None)]


def _parse(s):
    t = _lex(s)
    i = [0]

    def nxt():
        i[0] += 1
        return t[i[0] - 1]

    def see():
        return t[i[0]]

    def want(o):
        if nxt() != ("o", o):
            raise _Err("#PARSE")

    def add():
        x = mul()
        while see() in (("o", "+"), ("o", "-")):
            x = (nxt()[1], x, mul())
        return x

    def mul():
        x = neg()
        while see() in (("o", "*"), ("o", "/")):
            x = (nxt()[1], x, neg())
        return x

    def neg():
        if see() == ("o", "-"):
            nxt()
            return ("u", neg())
        return atom()

    def atom():
        k, v = nxt()
        if k == "n":
            return ("k", v)
        if k == "c":
            return ("r", v)
        if (k, v) == ("o", "("):
            x = add()
            want(")")
            return x
        if k == "f" and v in ("SUM", "MIN", "MAX"):
            want("(")
            args = []
            while True:
                if see()[0] == "c" and t[i[0] + 1] == ("o", ":"):
                    a = nxt()[1]
                    nxt()
                    k2, b = nxt()
                    if k2 != "c":
                        raise _Err("#PARSE")
                    args.append(("R", a, b))
                else:
                    args.append(add())
                if see() == ("o", ","):
                    nxt()
                    continue
                want(")")
                return ("F", v, args)
        raise _Err("#PARSE")

    x = add()
    if see()[0] != "$":
        raise _Err("#PARSE")
    return x


def _cells_of(a, b):
    return [(c, r) for r in range(min(a[1], b[1]), max(a[1], b[1]) + 1)
            for c in range(min(a[0], b[0]), max(a[0], b[0]) + 1)]


def _refs(x):
    if x[0] == "r":
        return [x[1]]
    if x[0] == "R":
        return _cells_of(x[1], x[2])
    if x[0] == "u":
        return _refs(x[1])
    if x[0] in "+-*/":
        return _refs(x[1]) + _refs(x[2])
    if x[0] == "F":
        return [c for a in x[2] for c in _refs(a)]
    return []


def evaluate_ref(text):
    """reference: sheet text -> list of output lines"""
    order, src = [], {}
    for line in text.split("\n"):
        if not line.strip():
            continue
        nm, _, content = line.partition(":")
        c = _cell(nm.strip())
        if c is None:
            continue
        if c not in src:
            order.append(c)
        src[c] = content.strip()
    ast = {}
    for c in order:
        s = src[c]
        try:
            if s.startswith("="):
                ast[c] = _parse(s[1:])
            elif _re.fullmatch(r"-?\d+", s):
                ast[c] = ("k", int(s))
            else:
                raise _Err("#PARSE")
        except _Err:
            ast[c] = ("E", "#PARSE")
    deps = {c: {d for d in _refs(ast[c]) if d in ast} for c in order}
    # a cell is on a cycle iff it can reach itself
    cyc = set()
    for c in order:
        seen, todo = set(), list(deps[c])
        while todo:
            d = todo.pop()
            if d == c:
                cyc.add(c)
                break
            if d not in seen:
                seen.add(d)
                todo.extend(deps[d])
    memo = {}

    def val(c):
        if c not in ast:
            return 0
        if c not in memo:
            try:
                if c in cyc:
                    raise _Err("#CYCLE")
                memo[c] = ev(ast[c])
            except _Err as e:
                memo[c] = e
        if isinstance(memo[c], _Err):
            raise memo[c]
        return memo[c]

    def ev(x):
        k = x[0]
        if k == "k":
            return x[1]
        if k == "E":
            raise _Err(x[1])
        if k == "r":
            return val(x[1])
        if k == "u":
            return -ev(x[1])
        if k in "+-*/":
            a, b = ev(x[1]), ev(x[2])
            if k == "+":
                return a + b
            if k == "-":
                return a - b
            if k == "*":
                return a * b
            if b == 0:
                raise _Err("#DIV0")
            q = abs(a) // abs(b)
            return q if (a < 0) == (b < 0) else -q
        vals = []
        for a in x[2]:
            if a[0] == "R":
                vals += [val(c) for c in _cells_of(a[1], a[2])]
            else:
                vals.append(ev(a))
        return {"SUM": sum, "MIN": min, "MAX": max}[x[1]](vals)

    out = []
    for c in order:
        try:
            v = str(val(c))
        except _Err as e:
            v = e.args[0]
        out.append(f"{_name(*c)} {v}")
    return out


COLS = ["A", "B", "C", "Z", "AA", "AB", "AZ", "BA", "ZZ"]


def gen_sheet(rng, ncells, cols=COLS, rows=6, p_cycle=0.3):
    cells = []
    while len(cells) < ncells:
        c = f"{rng.choice(cols)}{rng.randint(1, rows)}"
        if c not in cells:
            cells.append(c)

    def ref():
        if rng.random() < 0.85:
            return rng.choice(cells)
        return f"{rng.choice(cols)}{rng.randint(1, rows + 2)}"

    def expr(d):
        r = rng.random()
        if d <= 0 or r < 0.25:
            return str(rng.randint(0, 30))
        if r < 0.5:
            return ref()
        if r < 0.6:
            return "-" + expr(d - 1)
        if r < 0.7:
            return "(" + expr(d - 1) + ")"
        if r < 0.85:
            op = rng.choice(["+", "-", "-", "*", "/", "/"])
            sp = rng.choice(["", " "])
            return expr(d - 1) + sp + op + sp + expr(d - 1)
        args = []
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.5:
                a, b = ref(), ref()
                args.append(f"{a}:{b}")
            else:
                args.append(expr(d - 1))
        return rng.choice(["SUM", "MIN", "MAX"]) + "(" + ", ".join(args) + ")"

    lines = []
    for c in cells:
        r = rng.random()
        if r < 0.25:
            v = str(rng.randint(-50, 50))
        elif r < 0.28:
            v = rng.choice(["abc", "=SUM(", "=1+", "=FOO(1)", "=A1 A2", "=(2", "1.5", "=A0+1"])
        else:
            v = "=" + expr(rng.randint(1, 4))
        lines.append(f"{c}: {v}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def tmp():
    with tempfile.TemporaryDirectory() as d:
        yield d


def run_sheet(tmp, text, name="s"):
    p = os.path.join(tmp, name + ".txt")
    with open(p, "w", encoding="utf-8") as f:
        f.write(text)
    r = subprocess.run(["python3", SHEET, p], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout.split("\n")[:-1]


def check(tmp, text, name="s"):
    got = run_sheet(tmp, text, name)
    want = evaluate_ref(text)
    assert len(got) == len(want), (got, want)
    for g, w in zip(got, want):
        assert g == w, f"got {g!r}, want {w!r}\nsheet:\n{text}"


def test_arithmetic_precedence_and_division(tmp):
    text = """A1: 7
A2: -7
A3: 2
B1: =A1 - A3 - 1
B2: =10 - 4 + 3
B3: =A1 / A3
B4: =A2 / A3
B5: =A1 / -2 * 3
B6: = -A2 / 3 - -1
B7: =100 / 7 / 2
B8: =2 * (3 - 5) - (1 - 4) - 9
B9: =A2 - A3 + A1 - 1
C1: =-(A2 / 4) + A2 / 4
C2: =1 - 2 - 3 - 4 - 5
"""
    check(tmp, text, "arith")
    rng = random.Random(7101)
    for k in range(30):
        check(tmp, gen_sheet(rng, rng.randint(5, 12), cols=["A", "B", "C"], rows=4), f"ar{k}")


def test_ranges_any_corner_order(tmp):
    text = """A1: 1
B1: 2
C1: 3
A2: 10
B2: 20
C2: 30
A3: -5
D1: =SUM(A1:C2)
D2: =SUM(C2:A1)
D3: =SUM(A2:C1)
D4: =MIN(C1:A3)
D5: =MAX(A3:B1, -100)
D6: =SUM(B2:B1) + SUM(A3:A3)
D7: =MIN(A1:A3, 0) - MAX(C2:A2)
"""
    check(tmp, text, "ranges")


def test_wide_column_names(tmp):
    text = """Z1: 5
AA1: 6
AZ2: 7
BA2: 8
ZZ3: 9
Y1: =SUM(Y1:AA1)
Y2: =SUM(AA2:Z1) + AZ2
Y3: =MAX(AY1:BA3) * 10
Y4: =ZZ3 - Z1 - AA1
AAA4: =SUM(ZZ3:AAB3)
"""
    check(tmp, text, "wide")
    rng = random.Random(7103)
    for k in range(40):
        check(tmp, gen_sheet(rng, rng.randint(5, 30)), f"wd{k}")


def test_cycles_follow_the_reference_graph(tmp):
    text = """A1: =SUM(C1, B1)
B1: =A1
C1: =1/0
D1: =B1 + 1
E1: =E1
F1: =5 / 0 + F2
F2: =F1
G1: =MAX(G2:G3)
G2: 4
G3: =G1 * 2
H1: =SUM(A1:A1) - 1 / 0
H2: =1/0 - A1
"""
    check(tmp, text, "cycles")
    rng = random.Random(7104)
    for k in range(40):
        check(tmp, gen_sheet(rng, rng.randint(15, 40), cols=["A", "B", "C", "D"], rows=12), f"cy{k}")


def test_parse_errors_and_layout(tmp):
    text = """A1: 12

B1: abc
B2: =SUM(
B3: =A1 +
B4: =FOO(1)
B5: =A1 A1
B6: =(2
B7: 1.5
B8: =B1 + 1
B9: =A0 + 1
C1: =SUM(A1:5)
C2: =A1:A2
C3: =MIN(1,)
C4:   =  A1  *  2
C5: -0
C6: =B4 * 0
C7: =0 * B4
"""
    check(tmp, text, "parse")


def test_dense_random_sheets(tmp):
    rng = random.Random(7106)
    for k in range(60):
        check(tmp, gen_sheet(rng, rng.randint(20, 45), cols=["A", "B", "Z", "AA", "AB"], rows=12),
              f"dn{k}")


def test_long_chain(tmp):
    lines = ["A1: 3"]
    for i in range(2, 401):
        if i % 3 == 0:
            lines.append(f"A{i}: =A{i-1} - A{i-2} - -{i % 7}")
        elif i % 3 == 1:
            lines.append(f"A{i}: =SUM(A{i-1}:A{max(1, i-3)}) / -3")
        else:
            lines.append(f"A{i}: =MAX(A{i-1}, -A{i-1}) - 1")
    lines.append("B1: =A400 + B2")
    lines.append("B2: =SUM(A399:B1)")
    check(tmp, "\n".join(lines) + "\n", "chain")
