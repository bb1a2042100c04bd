"""Builds /app/calcapp deterministically: an app and its expression parser, which moved from parser/ to
libs/parser/ half way through the history."""
import os
import subprocess
from pathlib import Path

REPO = Path("/app/calcapp")
AUTHORS = [("Noor Haddad", "noor@example.jo"), ("Pavel Marek", "pavel@example.cz")]
ENV = dict(os.environ)
tick = [0]


def git(*args):
    return subprocess.run(["git", *args], cwd=REPO, env=ENV, check=True, capture_output=True, text=True).stdout


def write(path, text):
    p = REPO / path
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def commit(msg, author=0):
    tick[0] += 1
    adate = f"2025-06-{2 + tick[0]:02d}T{8 + tick[0] % 9:02d}:{(tick[0] * 17) % 60:02d}:00 +0300"
    cdate = f"2025-06-{2 + tick[0]:02d}T{9 + tick[0] % 9:02d}:05:00 +0300"   # committed a bit later
    name, mail = AUTHORS[author]
    ENV.update(GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=mail, GIT_AUTHOR_DATE=adate,
               GIT_COMMITTER_NAME="Build Bot", GIT_COMMITTER_EMAIL="bot@example.org", GIT_COMMITTER_DATE=cdate)
    git("add", "-A")
    git("commit", "-q", "-m", msg)


LEXER_1 = '''"""Tokens: integers and operators."""
import re

TOKEN = re.compile(r"\\s*(?:(\\d+)|(.))")


def tokenize(text):
    out = []
    for number, op in TOKEN.findall(text):
        if number:
            out.append(("num", int(number)))
        elif op.strip():
            if op not in "+-*/":
                raise SyntaxError(f"unexpected {op!r}")
            out.append(("op", op))
    out.append(("end", None))
    return out
'''
LEXER_2 = LEXER_1.replace('if op not in "+-*/":', 'if op not in "+-*/()":')
LEXER_3 = LEXER_2.replace('if op not in "+-*/()":', 'if op not in "+-*/()^":')

PARSE_1 = '''"""Precedence climbing over the tokens of parser.lexer; exact results as Fractions."""
from fractions import Fraction

from .lexer import tokenize

BINARY = {"+": (1, "left"), "-": (1, "left"), "*": (2, "left"), "/": (2, "left")}


class Parser:
    def __init__(self, text):
        self.tokens = tokenize(text)
        self.pos = 0

    def peek(self):
        return self.tokens[self.pos]

    def take(self):
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def atom(self):
        kind, value = self.take()
        if kind == "num":
            return Fraction(value)
        if value == "(":
            result = self.expr(0)
            if self.take() != ("op", ")"):
                raise SyntaxError("missing )")
            return result
        raise SyntaxError(f"unexpected {value!r}")

    def expr(self, min_prec):
        left = self.atom()
        while True:
            kind, op = self.peek()
            if kind != "op" or op not in BINARY or BINARY[op][0] < min_prec:
                return left
            prec, assoc = BINARY[op]
            self.take()
            right = self.expr(prec + 1 if assoc == "left" else prec)
            left = apply(op, left, right)


def apply(op, a, b):
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    return a / b


def evaluate(text):
    p = Parser(text)
    result = p.expr(0)
    if p.peek()[0] != "end":
        raise SyntaxError("trailing input")
    return result
'''
PARSE_2 = PARSE_1.replace('''        if value == "(":''', '''        if value == "-":
            return -self.expr(3)
        if value == "(":''')
PARSE_3 = PARSE_2.replace('"/": (2, "left")}', '"/": (2, "left"), "^": (4, "right")}').replace(
    '''    return a / b
''', '''    if op == "^":
        return a ** b
    return a / b
''')
PARSE_4 = PARSE_3.replace('raise SyntaxError("missing )")', 'raise SyntaxError("missing ) after expression")').replace(
    'raise SyntaxError(f"unexpected {value!r}")', 'raise SyntaxError(f"unexpected {value!r} at token {self.pos}")')

MAIN_1 = '''import sys

from {pkg} import evaluate


def main():
    for line in sys.argv[1:]:
        print(evaluate(line))


if __name__ == "__main__":
    main()
'''
MAIN_2 = '''import sys

from {pkg} import evaluate


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            print(evaluate(line))
        except (SyntaxError, ZeroDivisionError) as exc:
            print(f"error: {{exc}}")


if __name__ == "__main__":
    main()
'''

subprocess.run(["git", "init", "-q", "-b", "main", str(REPO)], check=True)
git("config", "gc.auto", "0")
write("parser/__init__.py", 'from .parse import evaluate\n\n__all__ = ["evaluate"]\n')
write("parser/lexer.py", LEXER_1)
write("parser/parse.py", PARSE_1)
write("app/__init__.py", "")
write("app/main.py", MAIN_1.format(pkg="parser"))
write("README.md", "# calcapp\n\nExact calculator: `echo '1/3 + 1/6' | python3 -m app.main`.\n")
write(".gitignore", "__pycache__/\n")
commit("Initial calculator and its parser")
write("parser/lexer.py", LEXER_2)
commit("Parser: tokens for parentheses", 1)
write("app/main.py", MAIN_2.format(pkg="parser"))
commit("App: read expressions from stdin")
write("parser/parse.py", PARSE_2)
commit("Parser: unary minus\n\nA leading minus binds tighter than * and /, looser than ^.\n", 1)
git("tag", "-a", "parser-v0.1", "-m", "parser 0.1")
write("README.md", "# calcapp\n\nExact calculator: `echo '1/3 + 1/6' | python3 -m app.main`.\n\nErrors print `error: ...`.\n")
commit("Document error output")
write("libs/__init__.py", "")
git("mv", "parser", "libs/parser")
write("app/main.py", MAIN_2.format(pkg="libs.parser"))
commit("Move the parser under libs/ so it can be shared", 1)
write("libs/parser/lexer.py", LEXER_3)
write("libs/parser/parse.py", PARSE_3)
write("README.md", "# calcapp\n\nExact calculator: `echo '2^10 / 3' | python3 -m app.main`.\n\nErrors print `error: ...`.\n")
commit("Power operator (right associative)\n\nTouches the parser and the README.\n", 1)
write("app/main.py", MAIN_2.format(pkg="libs.parser").replace("import sys\n", "import sys\n\nVERSION = \"1.1\"\n"))
commit("App: version constant")
write("libs/parser/parse.py", PARSE_4)
commit("Parser: clearer error messages", 1)
git("tag", "parser-v0.2")
write("CHANGELOG.md", "# Changelog\n\n- 1.1: power operator\n")
commit("Add changelog")
