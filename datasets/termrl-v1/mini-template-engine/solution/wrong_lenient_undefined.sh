#!/bin/bash
set -euo pipefail
cat > /app/tmpl.py <<'PY'
import json
import re
import sys


class TmplError(Exception):
    def __init__(self, line, msg):
        super().__init__(f"error: line {line}: {msg}")


class Undefined:
    def __init__(self, name):
        self.name = name


TAG_RE = re.compile(r"\{\{|\{%|\{#")
CLOSE = {"{{": "}}", "{%": "%}", "{#": "#}"}


def tokenize(src):
    toks = []  # [kind, content, line, lstrip, rstrip]
    pos = 0
    while True:
        m = TAG_RE.search(src, pos)
        if not m:
            toks.append(["text", src[pos:], None])
            break
        toks.append(["text", src[pos:m.start()], None])
        opener = m.group(0)
        line = src.count("\n", 0, m.start()) + 1
        end = src.find(CLOSE[opener], m.end())
        if end < 0:
            raise TmplError(line, f"unclosed {opener}")
        inner = src[m.end():end]
        lstrip = inner.startswith("-")
        rstrip = inner.endswith("-") and len(inner) > (1 if lstrip else 0)
        if lstrip:
            inner = inner[1:]
        if rstrip:
            inner = inner[:-1]
        kind = {"{{": "out", "{%": "block", "{#": "comment"}[opener]
        toks.append([kind, inner.strip(), line, lstrip, rstrip])
        pos = end + 2
        if kind == "block" and inner.strip() == "raw":
            m2 = re.compile(r"\{%-?\s*endraw\s*-?%\}").search(src, pos)
            if not m2:
                raise TmplError(line, "unclosed raw")
            toks.append(["raw", src[pos:m2.start()], None])
            toks.append(["text", "", None])
            pos = m2.end()
    # standalone lines (decided on the original text, applied afterwards)
    cut = {}
    for i, t in enumerate(toks):
        if t[0] not in ("block", "comment"):
            continue
        prev, nxt = toks[i - 1], toks[i + 1] if i + 1 < len(toks) else None
        if prev[0] != "text" or nxt is None or nxt[0] != "text":
            continue
        before = prev[1]
        nl = before.rfind("\n")
        if before[nl + 1:].strip(" \t") != "" or (nl < 0 and i - 1 != 0):
            continue
        after = nxt[1]
        k = after.find("\n")
        tail = after if k < 0 else after[:k]
        if tail.strip(" \t") != "" or (k < 0 and i + 1 != len(toks) - 1):
            continue
        cut.setdefault(i - 1, [0, len(before)])[1] = nl + 1
        cut.setdefault(i + 1, [0, len(after)])[0] = len(after) if k < 0 else k + 1
    for j, (a, b) in cut.items():
        toks[j][1] = toks[j][1][a:b] if a <= b else ""
    for i, t in enumerate(toks):
        if t[0] in ("out", "block", "comment"):
            if t[3] and toks[i - 1][0] == "text":
                toks[i - 1][1] = toks[i - 1][1].rstrip()
            if t[4] and i + 1 < len(toks) and toks[i + 1][0] == "text":
                toks[i + 1][1] = toks[i + 1][1].lstrip()
    return toks


LIT_RE = re.compile(r'\s*("[^"]*"|-?\d+|true\b|false\b|null\b)')
PATH_RE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*(?:\.(?:[A-Za-z_][A-Za-z0-9_]*|\d+))*)")
FILTER_RE = re.compile(r"\s*\|\s*([A-Za-z_]+)(?:\s*\(\s*(\"[^\"]*\"|-?\d+)\s*\))?")
FILTERS = {"upper", "lower", "title", "trim", "length", "default", "join", "escape", "truncate"}


def lit(s):
    if s.startswith('"'):
        return s[1:-1]
    return {"true": True, "false": False, "null": None}.get(s, None) if not re.fullmatch(r"-?\d+", s) else int(s)


def parse_expr(s, pos, line):
    m = LIT_RE.match(s, pos)
    if m:
        prim = ("lit", lit(m.group(1)))
    else:
        m = PATH_RE.match(s, pos)
        if not m:
            raise TmplError(line, "bad expression")
        prim = ("path", m.group(1))
    pos = m.end()
    filters = []
    while True:
        f = FILTER_RE.match(s, pos)
        if not f:
            break
        if f.group(1) not in FILTERS:
            raise TmplError(line, f"unknown filter {f.group(1)}")
        filters.append((f.group(1), lit(f.group(2)) if f.group(2) is not None else None))
        pos = f.end()
    return (prim, filters), pos


def parse_full_expr(s, line):
    e, pos = parse_expr(s, 0, line)
    if s[pos:].strip():
        raise TmplError(line, "bad expression")
    return e


def parse_cond(s, line):
    neg = False
    m = re.match(r"not\s+", s)
    if m:
        neg = True
        s = s[m.end():]
    left, pos = parse_expr(s, 0, line)
    rest = s[pos:].strip()
    if not rest:
        return ("truth", neg, left, None, None)
    m = re.match(r"(==|!=)\s*", rest)
    if not m:
        raise TmplError(line, "bad condition")
    right = parse_full_expr(rest[m.end():], line)
    return ("cmp", neg, left, m.group(1), right)


def parse(toks):
    root = []
    stack = [("root", root, None)]
    for t in toks:
        kind = t[0]
        body = stack[-1][1]
        if kind in ("text", "raw"):
            if t[1]:
                body.append(("text", t[1]))
        elif kind == "comment":
            continue
        elif kind == "out":
            body.append(("out", parse_full_expr(t[1], t[2]), t[2]))
        else:
            s, line = t[1], t[2]
            word = s.split(None, 1)[0] if s else ""
            arg = s[len(word):].strip()
            if word == "if":
                node = ["if", [(parse_cond(arg, line), [])], None, line]
                body.append(node)
                stack.append(("if", node[1][0][1], node))
            elif word == "elif":
                if stack[-1][0] != "if":
                    raise TmplError(line, "unexpected elif")
                node = stack.pop()[2]
                node[1].append((parse_cond(arg, line), []))
                stack.append(("if", node[1][-1][1], node))
            elif word == "else":
                if arg or stack[-1][0] not in ("if", "for"):
                    raise TmplError(line, "unexpected else")
                kindtop, _, node = stack.pop()
                slot = 2 if kindtop == "if" else 4
                node[slot] = []
                stack.append((kindtop + "-else", node[slot], node))
            elif word == "endif":
                if arg or stack[-1][0] not in ("if", "if-else"):
                    raise TmplError(line, "unexpected endif")
                stack.pop()
            elif word == "for":
                m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(.+)", arg)
                if not m or m.group(1) == "loop":
                    raise TmplError(line, "bad for")
                node = ["for", m.group(1), parse_full_expr(m.group(2), line), [], None, line]
                body.append(node)
                stack.append(("for", node[3], node))
            elif word == "endfor":
                if arg or stack[-1][0] not in ("for", "for-else"):
                    raise TmplError(line, "unexpected endfor")
                stack.pop()
            elif word == "raw" and not arg:
                continue
            else:
                raise TmplError(line, f"unknown tag {word}")
    if len(stack) > 1:
        node = stack[-1][2]
        raise TmplError(node[-1], "unclosed block")
    return root


def to_str(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return ""
    if isinstance(v, (list, dict)):
        return json.dumps(v, separators=(",", ":"), ensure_ascii=False)
    return str(v)


def lookup(path, scopes):
    parts = path.split(".")
    for sc in reversed(scopes):
        if parts[0] in sc:
            cur = sc[parts[0]]
            break
    else:
        return Undefined(path)
    for p in parts[1:]:
        if isinstance(cur, dict) and p in cur:
            cur = cur[p]
        elif isinstance(cur, list) and p.isdigit() and int(p) < len(cur):
            cur = cur[int(p)]
        else:
            return Undefined(path)
    return cur


def evaluate(expr, scopes, line, allow_undefined=False):
    prim, filters = expr
    v = prim[1] if prim[0] == "lit" else lookup(prim[1], scopes)
    for i, (name, arg) in enumerate(filters):
        if isinstance(v, Undefined) and name != "default":
            raise TmplError(line, f"undefined variable {v.name}")
        if name == "default":
            if isinstance(v, Undefined) or v is None:
                v = arg
        elif name == "upper":
            v = to_str(v).upper()
        elif name == "lower":
            v = to_str(v).lower()
        elif name == "title":
            v = to_str(v).title()
        elif name == "trim":
            v = to_str(v).strip()
        elif name == "length":
            if not isinstance(v, (str, list, dict)):
                raise TmplError(line, "length of non-sequence")
            v = len(v)
        elif name == "join":
            if not isinstance(v, list):
                raise TmplError(line, "join of non-list")
            v = to_str(arg).join(to_str(x) for x in v)
        elif name == "escape":
            v = (to_str(v).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                 .replace('"', "&quot;").replace("'", "&#39;"))
        elif name == "truncate":
            n = arg if isinstance(arg, int) else 0
            s = to_str(v)
            v = s[:n] + "..." if len(s) > n else s
    if isinstance(v, Undefined) and not allow_undefined:
        return ""
    return v


def truthy(v):
    if isinstance(v, Undefined):
        return False
    return bool(v)


def cond_value(c, scopes, line):
    kind, neg, left, op, right = c
    lv = evaluate(left, scopes, line, allow_undefined=True)
    if kind == "truth":
        r = truthy(lv)
    else:
        rv = evaluate(right, scopes, line, allow_undefined=True)
        if isinstance(lv, Undefined) or isinstance(rv, Undefined):
            eq = False
        else:
            eq = type(lv) == type(rv) and lv == rv if isinstance(lv, bool) or isinstance(rv, bool) else lv == rv
        r = eq if op == "==" else not eq
    return not r if neg else r


def render(nodes, scopes, out):
    for n in nodes:
        if n[0] == "text":
            out.append(n[1])
        elif n[0] == "out":
            out.append(to_str(evaluate(n[1], scopes, n[2])))
        elif n[0] == "if":
            for cond, body in n[1]:
                if cond_value(cond, scopes, n[3]):
                    render(body, scopes, out)
                    break
            else:
                if n[2] is not None:
                    render(n[2], scopes, out)
        elif n[0] == "for":
            _, var, expr, body, else_body, line = n
            seq = evaluate(expr, scopes, line)
            if isinstance(seq, dict):
                items = list(seq)
            elif isinstance(seq, list):
                items = seq
            else:
                raise TmplError(line, "for over non-iterable")
            if not items:
                if else_body is not None:
                    render(else_body, scopes, out)
                continue
            for i, item in enumerate(items):
                loop = {"index": i + 1, "first": i == 0, "last": i == len(items) - 1, "length": len(items)}
                render(body, scopes + [{var: item, "loop": loop}], out)


def render_template(src, data):
    nodes = parse(tokenize(src))
    out = []
    render(nodes, [data], out)
    return "".join(out)


def main():
    src = open(sys.argv[1], encoding="utf-8").read()
    data = json.load(open(sys.argv[2], encoding="utf-8"))
    try:
        res = render_template(src, data)
    except TmplError as e:
        sys.stderr.write(str(e) + "\n")
        sys.exit(1)
    sys.stdout.write(res)


if __name__ == "__main__":
    main()
PY
