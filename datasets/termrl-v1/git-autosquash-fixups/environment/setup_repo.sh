#!/bin/bash
set -euo pipefail
export GIT_AUTHOR_NAME="Kenji Sato" GIT_AUTHOR_EMAIL="kenji@example.jp"
export GIT_COMMITTER_NAME="Kenji Sato" GIT_COMMITTER_EMAIL="kenji@example.jp"
at() { export GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"; }
git init -q -b main /app/repo
cd /app/repo
git config gc.auto 0
mkdir -p calc
printf '# calc\n\nA tiny expression evaluator.\n' > README.md
printf '__pycache__/\n' > .gitignore
touch calc/__init__.py
git add -A && at "2025-05-01T10:00:00" && git commit -q -m "Project skeleton"

git checkout -q -b feature
cat > calc/tokenizer.py <<'PY'
import re

TOKEN = re.compile(r"\s*(\d+|[-+*/()])")


def tokenize(text):
    pos, out = 0, []
    while pos < len(text):
        m = TOKEN.match(text, pos)
        out.append(m.group(1))
        pos = m.end()
    return out
PY
git add -A && at "2025-05-02T10:00:00" && git commit -q -m "Add tokenizer"

cat > calc/parser.py <<'PY'
from calc.tokenizer import tokenize


def parse(text):
    tokens = tokenize(text)
    pos = 0

    def expr():
        nonlocal pos
        value = term()
        while pos < len(tokens) and tokens[pos] in "+-":
            op = tokens[pos]
            pos += 1
            rhs = term()
            value = (op, value, rhs)
        return value

    def term():
        nonlocal pos
        value = atom()
        while pos < len(tokens) and tokens[pos] in "*/":
            op = tokens[pos]
            pos += 1
            value = (op, value, atom())
        return value

    def atom():
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok == "(":
            value = expr()
            pos += 1
            return value
        return int(tok)

    return expr()
PY
git add -A && at "2025-05-03T10:00:00" && git commit -q -m "Add parser"

# fixup: tokenizer must reject garbage instead of crashing on None
python3 - <<'PY'
p = "calc/tokenizer.py"
s = open(p).read()
s = s.replace("        m = TOKEN.match(text, pos)\n", "        m = TOKEN.match(text, pos)\n        if m is None:\n            raise ValueError(f\"bad input at {pos}\")\n")
open(p, "w").write(s)
PY
git add -A && at "2025-05-03T15:00:00" && git commit -q -m "fixup! Add tokenizer"

cat > calc/evaluate.py <<'PY'
from calc.parser import parse

OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a // b}


def evaluate(node):
    if isinstance(node, int):
        return node
    op, a, b = node
    return OPS[op](evaluate(a), evaluate(b))


def calc(text):
    return evaluate(parse(text))
PY
git add -A && at "2025-05-04T10:00:00" && git commit -q -m "Add evaluator"

python3 - <<'PY'
p = "calc/parser.py"
s = open(p).read()
s = s.replace("    return expr()\n", "    result = expr()\n    if pos != len(tokens):\n        raise ValueError(\"trailing tokens\")\n    return result\n")
open(p, "w").write(s)
PY
git add -A && at "2025-05-04T16:00:00" && git commit -q -m "squash! Add parser

Reject trailing tokens."

python3 - <<'PY'
p = "calc/tokenizer.py"
s = open(p).read()
s = s.replace('r"\\s*(\\d+|[-+*/()])"', 'r"\\s*(\\d+|[-+*/()])\\s*"')
open(p, "w").write(s)
PY
git add -A && at "2025-05-05T09:00:00" && git commit -q -m "fixup! Add tokenizer"
