from .errors import TemplateError
from .filters import FILTERS


class Node:
    pass


class Text(Node):
    def __init__(self, s):
        self.s = s


class Var(Node):
    def __init__(self, expr):
        parts = [p.strip() for p in expr.split("|")]
        self.path = parts[0]
        self.filters = parts[1:]
        for f in self.filters:
            if f not in FILTERS:
                raise TemplateError(f"unknown filter {f}")


class For(Node):
    def __init__(self, var, seq):
        self.var, self.seq, self.body, self.else_body = var, seq, [], []


class If(Node):
    def __init__(self):
        self.branches = []  # (cond, body)
        self.else_body = []


def parse(tokens):
    root = []
    stack = [(None, root)]
    for kind, val in tokens:
        body = stack[-1][1]
        if kind == "text":
            body.append(Text(val))
        elif kind == "var":
            body.append(Var(val))
        else:
            words = val.split()
            if not words:
                raise TemplateError("empty tag")
            w = words[0]
            if w == "for":
                if len(words) != 4 or words[2] != "in":
                    raise TemplateError("bad for")
                node = For(words[1], words[3])
                body.append(node)
                stack.append((node, node.body))
            elif w == "if":
                node = If()
                node.branches.append((" ".join(words[1:]), []))
                body.append(node)
                stack.append((node, node.branches[-1][1]))
            elif w == "elif":
                node = stack[-1][0]
                if not isinstance(node, If):
                    raise TemplateError("elif outside if")
                node.branches.append((" ".join(words[1:]), []))
                stack[-1] = (node, node.branches[-1][1])
            elif w == "else":
                node = stack[-1][0]
                if isinstance(node, If):
                    stack[-1] = (node, node.else_body)
                elif isinstance(node, For):
                    stack[-1] = (node, node.else_body)
                else:
                    raise TemplateError("else outside block")
            elif w in ("endfor", "endif"):
                node = stack[-1][0]
                want = For if w == "endfor" else If
                if not isinstance(node, want):
                    raise TemplateError(f"stray {w}")
                stack.pop()
            else:
                raise TemplateError(f"unknown tag {w}")
    return root
