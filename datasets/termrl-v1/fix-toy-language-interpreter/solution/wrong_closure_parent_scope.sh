#!/bin/bash
# Fixes most bugs but binds calls to the *parent* of the defining scope (closures over block-local variables break).
set -euo pipefail
cd /app/toylang
python3 - <<'PY'
def sub(path, old, new):
    s = open(path).read()
    assert old in s, (path, old)
    open(path, "w").write(s.replace(old, new, 1))

# lexer: backslash escape
sub("lexer.py", '''ESCAPES = {"n": "\\n", "t": "\\t", '"': '"'}''', '''ESCAPES = {"n": "\\n", "t": "\\t", '"': '"', "\\\\": "\\\\"}''')
# parser: + and - are left-associative
sub("parser.py", '''        left = self.factor()
        if self.at("op", "+") or self.at("op", "-"):
            op = self.eat("op")[1]
            return ("bin", op, left, self.term())
        return left''', '''        left = self.factor()
        while self.at("op", "+") or self.at("op", "-"):
            op = self.eat("op")[1]
            left = ("bin", op, left, self.factor())
        return left''')
# interp: && short-circuits
sub("interp.py", '''            left = self.eval(e[1], env)
            right = self.eval(e[2], env)
            return right if truthy(left) else left''', '''            left = self.eval(e[1], env)
            return self.eval(e[2], env) if truthy(left) else left''')
# interp: lexical scoping for calls
sub("interp.py", "local = Env(self.globals)", "local = Env(self.globals if f.env is None else f.env.parent or f.env)")
# interp: return propagates out of loops
sub("interp.py", '''                try:
                    self.exec(s[2], env)
                except Return:
                    break''', '''                self.exec(s[2], env)''')
# interp: floor division / modulo
sub("interp.py", '''            q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
            return q if op == "/" else a - b * q''', '''            return a // b if op == "/" else a % b''')
PY
