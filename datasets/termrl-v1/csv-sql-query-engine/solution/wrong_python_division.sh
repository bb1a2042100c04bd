#!/bin/bash
# Uses Python's floor division/modulo for integers instead of SQLite's truncating semantics.
set -euo pipefail
cat > /app/csvsql.py <<'PY'
import functools
import os
import re
import sys


class SqlError(Exception):
    pass


TOKEN = re.compile(r"\s*(?:(\d+\.\d*|\.\d+|\d+)|('(?:[^']|'')*')|([A-Za-z_][A-Za-z0-9_]*)|(<=|>=|!=|<>|==|[=<>+\-*/%(),]))")
KEYWORDS = {"SELECT", "DISTINCT", "FROM", "WHERE", "GROUP", "BY", "HAVING", "ORDER", "ASC", "DESC", "LIMIT",
            "OFFSET", "AS", "AND", "OR", "NOT", "IS", "NULL", "LIKE"}
AGGS = {"COUNT", "SUM", "AVG", "MIN", "MAX"}


def tokenize(q):
    toks, pos = [], 0
    q = q.rstrip().rstrip(";").rstrip()
    while pos < len(q):
        m = TOKEN.match(q, pos)
        if not m or m.end() == pos:
            if q[pos:].strip() == "":
                break
            raise SqlError(f"bad token near {q[pos:pos + 10]!r}")
        pos = m.end()
        num, s, ident, op = m.groups()
        if num is not None:
            toks.append(("num", float(num) if "." in num else int(num)))
        elif s is not None:
            toks.append(("str", s[1:-1].replace("''", "'")))
        elif ident is not None:
            u = ident.upper()
            toks.append(("kw", u) if u in KEYWORDS else ("id", ident))
        else:
            toks.append(("op", op))
    toks.append(("eof", None))
    return toks


class Parser:
    def __init__(self, toks):
        self.t, self.i = toks, 0

    def peek(self, k=0):
        return self.t[self.i + k]

    def at(self, kind, val=None):
        tk = self.t[self.i]
        return tk[0] == kind and (val is None or tk[1] == val)

    def take(self, kind, val=None):
        if not self.at(kind, val):
            raise SqlError(f"expected {val or kind}, got {self.peek()[1]!r}")
        tk = self.t[self.i]
        self.i += 1
        return tk

    def query(self):
        self.take("kw", "SELECT")
        q = {"distinct": False, "items": [], "where": None, "group": [], "having": None, "order": [],
             "limit": None, "offset": None}
        if self.at("kw", "DISTINCT"):
            self.take("kw")
            q["distinct"] = True
        while True:
            if self.at("op", "*"):
                self.take("op")
                q["items"].append(("*", None))
            else:
                e = self.expr()
                alias = None
                if self.at("kw", "AS"):
                    self.take("kw")
                    alias = self.take("id")[1]
                q["items"].append((e, alias))
            if not self.at("op", ","):
                break
            self.take("op")
        self.take("kw", "FROM")
        q["table"] = self.take("id")[1]
        if self.at("kw", "WHERE"):
            self.take("kw")
            q["where"] = self.expr()
        if self.at("kw", "GROUP"):
            self.take("kw")
            self.take("kw", "BY")
            q["group"].append(self.expr())
            while self.at("op", ","):
                self.take("op")
                q["group"].append(self.expr())
        if self.at("kw", "HAVING"):
            self.take("kw")
            q["having"] = self.expr()
        if self.at("kw", "ORDER"):
            self.take("kw")
            self.take("kw", "BY")
            while True:
                e = self.expr()
                desc = False
                if self.at("kw", "ASC"):
                    self.take("kw")
                elif self.at("kw", "DESC"):
                    self.take("kw")
                    desc = True
                q["order"].append((e, desc))
                if not self.at("op", ","):
                    break
                self.take("op")
        if self.at("kw", "LIMIT"):
            self.take("kw")
            q["limit"] = self.int_lit()
            if self.at("kw", "OFFSET"):
                self.take("kw")
                q["offset"] = self.int_lit()
        self.take("eof")
        return q

    def int_lit(self):
        neg = False
        if self.at("op", "-"):
            self.take("op")
            neg = True
        v = self.take("num")[1]
        if not isinstance(v, int):
            raise SqlError("LIMIT/OFFSET need integers")
        return -v if neg else v

    def expr(self):
        e = self.and_()
        while self.at("kw", "OR"):
            self.take("kw")
            e = ("or", e, self.and_())
        return e

    def and_(self):
        e = self.not_()
        while self.at("kw", "AND"):
            self.take("kw")
            e = ("and", e, self.not_())
        return e

    def not_(self):
        if self.at("kw", "NOT"):
            self.take("kw")
            return ("not", self.not_())
        return self.eq()

    def eq(self):
        e = self.cmp()
        while True:
            if self.at("op") and self.peek()[1] in ("=", "==", "!=", "<>"):
                op = self.take("op")[1]
                op = {"==": "=", "<>": "!="}.get(op, op)
                e = ("bin", op, e, self.cmp())
            elif self.at("kw", "IS"):
                self.take("kw")
                neg = False
                if self.at("kw", "NOT"):
                    self.take("kw")
                    neg = True
                self.take("kw", "NULL")
                e = ("isnull", e, neg)
            elif self.at("kw", "LIKE") or (self.at("kw", "NOT") and self.peek(1) == ("kw", "LIKE")):
                neg = False
                if self.at("kw", "NOT"):
                    self.take("kw")
                    neg = True
                self.take("kw", "LIKE")
                e = ("like", e, self.cmp(), neg)
            else:
                return e

    def cmp(self):
        e = self.add()
        while self.at("op") and self.peek()[1] in ("<", "<=", ">", ">="):
            op = self.take("op")[1]
            e = ("bin", op, e, self.add())
        return e

    def add(self):
        e = self.mul()
        while self.at("op") and self.peek()[1] in ("+", "-"):
            op = self.take("op")[1]
            e = ("bin", op, e, self.mul())
        return e

    def mul(self):
        e = self.unary()
        while self.at("op") and self.peek()[1] in ("*", "/", "%"):
            op = self.take("op")[1]
            e = ("bin", op, e, self.unary())
        return e

    def unary(self):
        if self.at("op", "-"):
            self.take("op")
            return ("neg", self.unary())
        if self.at("op", "+"):
            self.take("op")
            return self.unary()
        return self.primary()

    def primary(self):
        tk = self.peek()
        if tk[0] in ("num", "str"):
            self.i += 1
            return ("lit", tk[1])
        if tk == ("kw", "NULL"):
            self.i += 1
            return ("lit", None)
        if tk == ("op", "("):
            self.i += 1
            e = self.expr()
            self.take("op", ")")
            return e
        if tk[0] == "id":
            self.i += 1
            if self.at("op", "(") and tk[1].upper() in AGGS:
                self.take("op")
                name = tk[1].upper()
                if name == "COUNT" and self.at("op", "*"):
                    self.take("op")
                    arg = None
                else:
                    arg = self.expr()
                self.take("op", ")")
                return ("agg", name, arg)
            return ("col", tk[1])
        raise SqlError(f"unexpected {tk[1]!r}")


def has_agg(e):
    if not isinstance(e, tuple):
        return False
    if e[0] == "agg":
        return True
    return any(has_agg(x) for x in e[1:] if isinstance(x, tuple))


def columns_in(e, out):
    if isinstance(e, tuple):
        if e[0] == "col":
            out.add(e[1])
        for x in e[1:]:
            columns_in(x, out)


def truth(v):
    if v is None:
        return None
    if isinstance(v, str):
        try:
            return float(v) != 0
        except ValueError:
            return False
    return v != 0


def like(s, pat):
    rx = "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in pat)
    return re.fullmatch(rx, s, re.S | re.I | re.A) is not None


def arith(op, a, b):
    if a is None or b is None:
        return None
    if isinstance(a, str) or isinstance(b, str):
        raise SqlError("text in arithmetic")
    both_int = isinstance(a, int) and isinstance(b, int)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        if b == 0:
            return None
        if both_int:
            return a // b
        return a / b
    if op == "%":
        if both_int:
            if b == 0:
                return None
            return a % b
        ia, ib = int(a), int(b)
        if ib == 0:
            return None
        r = abs(ia) % abs(ib)
        return float(-r if ia < 0 else r)


def compare(op, a, b):
    if a is None or b is None:
        return None
    if op == "=":
        return int(a == b)
    if op == "!=":
        return int(a != b)
    if op == "<":
        return int(a < b)
    if op == "<=":
        return int(a <= b)
    if op == ">":
        return int(a > b)
    return int(a >= b)


def aggregate(name, arg, rows, ev):
    if name == "COUNT" and arg is None:
        return len(rows)
    vals = [v for v in (ev(arg, [r]) for r in rows) if v is not None]
    if name == "COUNT":
        return len(vals)
    if not vals:
        return None
    if name == "SUM":
        return sum(vals) if all(isinstance(v, int) for v in vals) else float(sum(vals))
    if name == "AVG":
        return float(sum(vals)) / len(vals)
    key = functools.cmp_to_key(sql_cmp)
    return min(vals, key=key) if name == "MIN" else max(vals, key=key)


def evaluate(e, rows):
    """rows: list of row dicts (a group); non-aggregate parts use the first row."""
    k = e[0]
    if k == "lit":
        return e[1]
    if k == "col":
        return rows[0][e[1]] if rows else None
    if k == "agg":
        return aggregate(e[1], e[2], rows, evaluate)
    if k == "neg":
        v = evaluate(e[1], rows)
        return None if v is None else 0 - v
    if k == "not":
        t = truth(evaluate(e[1], rows))
        return None if t is None else int(not t)
    if k == "and":
        a, b = truth(evaluate(e[1], rows)), truth(evaluate(e[2], rows))
        if a is False or b is False:
            return 0
        return None if a is None or b is None else 1
    if k == "or":
        a, b = truth(evaluate(e[1], rows)), truth(evaluate(e[2], rows))
        if a is True or b is True:
            return 1
        return None if a is None or b is None else 0
    if k == "isnull":
        v = evaluate(e[1], rows)
        return int((v is None) != e[2])
    if k == "like":
        a, b = evaluate(e[1], rows), evaluate(e[2], rows)
        if a is None or b is None:
            return None
        r = like(str(a), str(b))
        return int(r != e[3])
    if k == "bin":
        a, b = evaluate(e[2], rows), evaluate(e[3], rows)
        if e[1] in ("+", "-", "*", "/", "%"):
            return arith(e[1], a, b)
        return compare(e[1], a, b)
    raise SqlError(f"bad node {k}")


def rank(v):
    return 0 if v is None else 1 if isinstance(v, (int, float)) else 2


def sql_cmp(a, b):
    ra, rb = rank(a), rank(b)
    if ra != rb:
        return -1 if ra < rb else 1
    if a is None:
        return 0
    return (a > b) - (a < b)


def load(dirpath, table):
    path = os.path.join(dirpath, table + ".csv")
    if not os.path.isfile(path):
        raise SqlError(f"no such table: {table}")
    with open(path) as f:
        lines = f.read().splitlines()
    cols = []
    for h in lines[0].split(","):
        name, _, typ = h.partition(":")
        cols.append((name.strip(), typ.strip().upper() or "TEXT"))
    conv = {"INTEGER": int, "REAL": float, "TEXT": str}
    rows = []
    for line in lines[1:]:
        if line == "":
            continue
        vals = line.split(",")
        row = {}
        for (name, typ), v in zip(cols, vals):
            row[name] = None if v == "" else conv[typ](v)
        rows.append(row)
    return [c for c, _ in cols], rows


def fmt(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)
    return str(v)


def run(dirpath, sql):
    q = Parser(tokenize(sql)).query()
    cols, rows = load(dirpath, q["table"])
    aliases = {a for _, a in q["items"] if a}
    used = set()
    for e, _ in q["items"]:
        if e != "*":
            columns_in(e, used)
    for e in [q["where"], q["having"], *q["group"]]:
        columns_in(e, used)
    for e, _ in q["order"]:
        s = set()
        columns_in(e, s)
        used |= s - aliases
    missing = used - set(cols)
    if missing:
        raise SqlError(f"no such column: {sorted(missing)[0]}")
    if q["where"] is not None and has_agg(q["where"]):
        raise SqlError("misuse of aggregate in WHERE")
    if q["where"] is not None:
        rows = [r for r in rows if truth(evaluate(q["where"], [r])) is True]
    agg_mode = bool(q["group"]) or q["having"] is not None or any(
        e != "*" and has_agg(e) for e, _ in q["items"]) or any(has_agg(e) for e, _ in q["order"])
    if agg_mode:
        if q["group"]:
            groups = {}
            for r in rows:
                key = tuple(evaluate(g, [r]) for g in q["group"])
                groups.setdefault(key, []).append(r)
            records = list(groups.values())
        else:
            records = [rows]
        if q["having"] is not None:
            records = [g for g in records if truth(evaluate(q["having"], g)) is True]
    else:
        records = [[r] for r in rows]
    items = []
    for e, a in q["items"]:
        if e == "*":
            if agg_mode:
                raise SqlError("* with aggregates")
            items += [(("col", c), None) for c in cols]
        else:
            items.append((e, a))
    out = []
    for rec in records:
        vals = tuple(evaluate(e, rec) for e, _ in items)
        out.append((vals, rec))
    if q["distinct"]:
        seen, uniq = set(), []
        for vals, rec in out:
            key = tuple((rank(v), v) for v in vals)
            if key not in seen:
                seen.add(key)
                uniq.append((vals, rec))
        out = uniq
    if q["order"]:
        alias_pos = {a: i for i, (_, a) in enumerate(items) if a}

        def keyvals(entry):
            vals, rec = entry
            ks = []
            for e, _ in q["order"]:
                if e[0] == "col" and e[1] in alias_pos:
                    ks.append(vals[alias_pos[e[1]]])
                elif e[0] == "lit" and isinstance(e[1], int) and 1 <= e[1] <= len(vals):
                    ks.append(vals[e[1] - 1])
                else:
                    ks.append(evaluate(e, rec))
            return ks

        keyed = [(keyvals(x), x) for x in out]

        def cmp(x, y):
            for (a, b, (_, desc)) in zip(x[0], y[0], q["order"]):
                c = sql_cmp(a, b)
                if c:
                    return -c if desc else c
            return 0

        keyed.sort(key=functools.cmp_to_key(cmp))
        out = [x for _, x in keyed]
    off = q["offset"] or 0
    if off > 0:
        out = out[off:]
    if q["limit"] is not None and q["limit"] >= 0:
        out = out[:q["limit"]]
    return ["|".join(fmt(v) for v in vals) for vals, _ in out]


def main(argv):
    if len(argv) != 2:
        print("usage: csvsql.py DIR QUERY", file=sys.stderr)
        return 1
    try:
        lines = run(argv[0], argv[1])
    except (SqlError, KeyError, ValueError, TypeError, IndexError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    sys.stdout.write("".join(l + "\n" for l in lines))
    return 0


sys.exit(main(sys.argv[1:]))
PY
