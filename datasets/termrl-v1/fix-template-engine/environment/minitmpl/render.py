from .filters import FILTERS, escape
from .lexer import tokenize
from .parser import For, If, Text, Var, parse

_MISSING = ""


def lookup(path, ctx):
    if path.isdigit():
        return int(path)
    names = path.split(".")
    value = ctx.get(names[0], _MISSING)
    for name in names[1:]:
        if isinstance(value, dict):
            value = value.get(name, _MISSING)
        else:
            value = getattr(value, name, _MISSING)
    return value


def truth(cond, ctx):
    cond = cond.strip()
    if cond.startswith("not "):
        return not truth(cond[4:], ctx)
    return bool(lookup(cond, ctx))


def render_nodes(nodes, ctx, out):
    for node in nodes:
        if isinstance(node, Text):
            out.append(node.s)
        elif isinstance(node, Var):
            value = lookup(node.path, ctx)
            for f in reversed(node.filters):
                value = FILTERS[f](value)
            if node.filters and node.filters[-1] == "safe":
                out.append("" if value is None else str(value))
            else:
                out.append(escape(value))
        elif isinstance(node, For):
            seq = list(lookup(node.seq, ctx) or [])
            if not seq:
                render_nodes(node.else_body, ctx, out)
            for i, item in enumerate(seq):
                ctx[node.var] = item
                ctx["loop"] = {"index": i + 1, "first": i == 0, "last": i == len(seq) - 1}
                render_nodes(node.body, ctx, out)
        elif isinstance(node, If):
            for cond, body in node.branches:
                if truth(cond, ctx):
                    render_nodes(body, ctx, out)
                    break
            else:
                render_nodes(node.else_body, ctx, out)


def render(template, context):
    out = []
    render_nodes(parse(tokenize(template)), dict(context), out)
    return "".join(out)
