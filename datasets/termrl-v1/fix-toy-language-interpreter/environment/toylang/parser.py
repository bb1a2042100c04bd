from .errors import ToyError

# AST nodes are tuples: (kind, ...)


class Parser:
    def __init__(self, toks):
        self.toks, self.i = toks, 0

    def peek(self, k=0):
        return self.toks[self.i + k]

    def at(self, kind, val=None):
        t = self.peek()
        return t[0] == kind and (val is None or t[1] == val)

    def eat(self, kind, val=None):
        t = self.peek()
        if not self.at(kind, val):
            raise ToyError(f"line {t[2]}: expected {val or kind}, got {t[1]!r}")
        self.i += 1
        return t

    def program(self):
        out = []
        while not self.at("eof"):
            out.append(self.statement())
        return out

    def block(self):
        self.eat("op", "{")
        out = []
        while not self.at("op", "}"):
            if self.at("eof"):
                raise ToyError("unexpected end of input")
            out.append(self.statement())
        self.eat("op", "}")
        return ("block", out)

    def statement(self):
        if self.at("kw", "let"):
            self.eat("kw")
            name = self.eat("name")[1]
            self.eat("op", "=")
            e = self.expr()
            self.eat("op", ";")
            return ("let", name, e)
        if self.at("kw", "print"):
            self.eat("kw")
            e = self.expr()
            self.eat("op", ";")
            return ("print", e)
        if self.at("kw", "if"):
            self.eat("kw")
            self.eat("op", "(")
            cond = self.expr()
            self.eat("op", ")")
            then = self.block()
            other = None
            if self.at("kw", "else"):
                self.eat("kw")
                other = self.statement() if self.at("kw", "if") else self.block()
            return ("if", cond, then, other)
        if self.at("kw", "while"):
            self.eat("kw")
            self.eat("op", "(")
            cond = self.expr()
            self.eat("op", ")")
            return ("while", cond, self.block())
        if self.at("kw", "fn"):
            self.eat("kw")
            name = self.eat("name")[1]
            self.eat("op", "(")
            params = []
            while not self.at("op", ")"):
                params.append(self.eat("name")[1])
                if not self.at("op", ")"):
                    self.eat("op", ",")
            self.eat("op", ")")
            return ("fn", name, params, self.block())
        if self.at("kw", "return"):
            self.eat("kw")
            e = None if self.at("op", ";") else self.expr()
            self.eat("op", ";")
            return ("return", e)
        if self.at("op", "{"):
            return self.block()
        if self.at("name") and self.peek(1)[:2] == ("op", "="):
            name = self.eat("name")[1]
            self.eat("op", "=")
            e = self.expr()
            self.eat("op", ";")
            return ("assign", name, e)
        e = self.expr()
        self.eat("op", ";")
        return ("expr", e)

    def expr(self):
        return self.logic_or()

    def logic_or(self):
        left = self.logic_and()
        while self.at("op", "||"):
            self.eat("op")
            left = ("or", left, self.logic_and())
        return left

    def logic_and(self):
        left = self.equality()
        while self.at("op", "&&"):
            self.eat("op")
            left = ("and", left, self.equality())
        return left

    def equality(self):
        left = self.comparison()
        while self.at("op", "==") or self.at("op", "!="):
            op = self.eat("op")[1]
            left = ("bin", op, left, self.comparison())
        return left

    def comparison(self):
        left = self.term()
        while any(self.at("op", o) for o in ("<", "<=", ">", ">=")):
            op = self.eat("op")[1]
            left = ("bin", op, left, self.term())
        return left

    def term(self):
        left = self.factor()
        if self.at("op", "+") or self.at("op", "-"):
            op = self.eat("op")[1]
            return ("bin", op, left, self.term())
        return left

    def factor(self):
        left = self.unary()
        while any(self.at("op", o) for o in ("*", "/", "%")):
            op = self.eat("op")[1]
            left = ("bin", op, left, self.unary())
        return left

    def unary(self):
        if self.at("op", "-") or self.at("op", "!"):
            op = self.eat("op")[1]
            return ("unary", op, self.unary())
        return self.call()

    def call(self):
        e = self.primary()
        while self.at("op", "("):
            self.eat("op")
            args = []
            while not self.at("op", ")"):
                args.append(self.expr())
                if not self.at("op", ")"):
                    self.eat("op", ",")
            self.eat("op", ")")
            e = ("call", e, args)
        return e

    def primary(self):
        t = self.peek()
        if t[0] == "int":
            self.i += 1
            return ("lit", t[1])
        if t[0] == "str":
            self.i += 1
            return ("lit", t[1])
        if t[0] == "kw" and t[1] in ("true", "false", "nil"):
            self.i += 1
            return ("lit", {"true": True, "false": False, "nil": None}[t[1]])
        if t[0] == "name":
            self.i += 1
            return ("var", t[1])
        if self.at("op", "("):
            self.eat("op")
            e = self.expr()
            self.eat("op", ")")
            return e
        raise ToyError(f"line {t[2]}: unexpected {t[1]!r}")


def parse(toks):
    return Parser(toks).program()
