from .errors import ToyError
from .lexer import tokenize
from .parser import parse


class Env:
    def __init__(self, parent=None):
        self.vars, self.parent = {}, parent

    def find(self, name):
        e = self
        while e is not None:
            if name in e.vars:
                return e
            e = e.parent
        return None

    def get(self, name):
        e = self.find(name)
        if e is None:
            raise ToyError(f"undefined variable {name}")
        return e.vars[name]

    def set(self, name, value):
        e = self.find(name)
        if e is None:
            raise ToyError(f"assignment to undeclared variable {name}")
        e.vars[name] = value


class Function:
    def __init__(self, name, params, body, env):
        self.name, self.params, self.body, self.env = name, params, body, env


class Return(Exception):
    def __init__(self, value):
        self.value = value


def show(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "nil"
    if isinstance(v, Function):
        return f"<fn {v.name}>"
    return str(v)


def truthy(v):
    return v is not None and v is not False


class Interpreter:
    def __init__(self, out):
        self.out = out
        self.globals = Env()

    def exec_block(self, stmts, env):
        for s in stmts:
            self.exec(s, env)

    def exec(self, s, env):
        k = s[0]
        if k == "let":
            env.vars[s[1]] = self.eval(s[2], env)
        elif k == "assign":
            env.set(s[1], self.eval(s[2], env))
        elif k == "print":
            self.out.write(show(self.eval(s[1], env)) + "\n")
        elif k == "expr":
            self.eval(s[1], env)
        elif k == "block":
            self.exec_block(s[1], Env(env))
        elif k == "if":
            if truthy(self.eval(s[1], env)):
                self.exec(s[2], env)
            elif s[3] is not None:
                self.exec(s[3], env)
        elif k == "while":
            while truthy(self.eval(s[1], env)):
                try:
                    self.exec(s[2], env)
                except Return:
                    break
        elif k == "fn":
            env.vars[s[1]] = Function(s[1], s[2], s[3], env)
        elif k == "return":
            raise Return(None if s[1] is None else self.eval(s[1], env))
        else:
            raise ToyError(f"bad statement {k}")

    def eval(self, e, env):
        k = e[0]
        if k == "lit":
            return e[1]
        if k == "var":
            return env.get(e[1])
        if k == "unary":
            v = self.eval(e[2], env)
            if e[1] == "!":
                return not truthy(v)
            if type(v) is not int:
                raise ToyError("unary - needs an integer")
            return -v
        if k == "and":
            left = self.eval(e[1], env)
            right = self.eval(e[2], env)
            return right if truthy(left) else left
        if k == "or":
            left = self.eval(e[1], env)
            return left if truthy(left) else self.eval(e[2], env)
        if k == "bin":
            return self.binary(e[1], self.eval(e[2], env), self.eval(e[3], env))
        if k == "call":
            f = self.eval(e[1], env)
            args = [self.eval(a, env) for a in e[2]]
            if not isinstance(f, Function):
                raise ToyError("call of non-function")
            if len(args) != len(f.params):
                raise ToyError(f"{f.name} expects {len(f.params)} arguments")
            local = Env(self.globals)
            for p, a in zip(f.params, args):
                local.vars[p] = a
            try:
                self.exec_block(f.body[1], local)
            except Return as r:
                return r.value
            return None
        raise ToyError(f"bad expression {k}")

    def binary(self, op, a, b):
        if op == "==":
            return type(a) is type(b) and a == b
        if op == "!=":
            return not (type(a) is type(b) and a == b)
        if op == "+" and type(a) is str and type(b) is str:
            return a + b
        if op in ("<", "<=", ">", ">=") and type(a) is str and type(b) is str:
            pass
        elif type(a) is not int or type(b) is not int:
            raise ToyError(f"bad operands for {op}")
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op in ("/", "%"):
            if b == 0:
                raise ToyError("division by zero")
            q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
            return q if op == "/" else a - b * q
        if op == "<":
            return a < b
        if op == "<=":
            return a <= b
        if op == ">":
            return a > b
        if op == ">=":
            return a >= b
        raise ToyError(f"bad operator {op}")


def run_source(src, out):
    Interpreter(out).exec_block(parse(tokenize(src)), None or Env())
