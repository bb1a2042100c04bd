#!/bin/bash
# Forward-mode differentiation: each value carries its gradient over all variables, so a variable used twice
# is one variable; expressions are parsed with Python's ast and only the documented node types are accepted.
set -euo pipefail
cat > /app/uprop.py <<'PY'
"""First-order uncertainty propagation with exact (forward-mode) derivatives."""
import ast
import json
import math
import sys

import numpy as np


class Bad(Exception):
    pass


class D:
    """A value with its gradient over the input variables."""

    def __init__(self, v, g):
        self.v, self.g = float(v), g

    @staticmethod
    def const(v, n):
        return D(v, np.zeros(n))

    def __add__(self, o):
        return D(self.v + o.v, self.g + o.g)

    def __sub__(self, o):
        return D(self.v - o.v, self.g - o.g)

    def __mul__(self, o):
        return D(self.v * o.v, self.g * o.v + o.g * self.v)

    def __truediv__(self, o):
        if o.v == 0:
            raise ZeroDivisionError("division by zero")
        return D(self.v / o.v, (self.g * o.v - o.g * self.v) / (o.v * o.v))

    def __pow__(self, o):
        if not o.g.any():  # constant exponent
            p = o.v
            val = self.v ** p
            if isinstance(val, complex):
                raise ValueError("negative number to a fractional power")
            d = 0.0 if p == 0 else p * self.v ** (p - 1) if self.v != 0 or p >= 1 else math.inf
            return D(val, self.g * d)
        if self.v <= 0:
            raise ValueError("non-positive base with a variable exponent")
        val = self.v ** o.v
        return D(val, val * (o.g * math.log(self.v) + o.v * self.g / self.v))

    def __neg__(self):
        return D(-self.v, -self.g)


def fn(name, x):
    v = x.v
    if name == "sin":
        return D(math.sin(v), x.g * math.cos(v))
    if name == "cos":
        return D(math.cos(v), -x.g * math.sin(v))
    if name == "tan":
        return D(math.tan(v), x.g / math.cos(v) ** 2)
    if name == "exp":
        e = math.exp(v)
        return D(e, x.g * e)
    if name == "log":
        if v <= 0:
            raise ValueError("log of a non-positive number")
        return D(math.log(v), x.g / v)
    if name == "sqrt":
        if v < 0:
            raise ValueError("sqrt of a negative number")
        s = math.sqrt(v)
        return D(s, x.g / (2 * s) if s > 0 else x.g * math.inf)
    raise Bad(f"unknown function {name!r}")


OPS = {ast.Add: D.__add__, ast.Sub: D.__sub__, ast.Mult: D.__mul__, ast.Div: D.__truediv__, ast.Pow: D.__pow__}


def evaluate(node, env, n):
    if isinstance(node, ast.Expression):
        return evaluate(node.body, env, n)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return D.const(node.value, n)
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id == "pi":
            return D.const(math.pi, n)
        raise Bad(f"unknown name {node.id!r}")
    if isinstance(node, ast.BinOp) and type(node.op) in OPS:
        return OPS[type(node.op)](evaluate(node.left, env, n), evaluate(node.right, env, n))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        x = evaluate(node.operand, env, n)
        return -x if isinstance(node.op, ast.USub) else x
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1
            and not node.keywords):
        return fn(node.func.id, evaluate(node.args[0], env, n))
    raise Bad(f"unsupported syntax {type(node).__name__}")


def fail(msg):
    print(msg, file=sys.stderr)
    sys.exit(2)


def main():
    inp = json.load(open(sys.argv[1]))
    names = list(inp["variables"])
    n = len(names)
    sig = np.array([float(inp["variables"][k]["sigma"]) for k in names])
    R = np.eye(n)
    for a, b, rho in inp.get("correlations", []):
        if a not in inp["variables"] or b not in inp["variables"]:
            fail(f"correlation {[a, b, rho]}: unknown variable {a if a not in inp['variables'] else b!r}")
        if abs(rho) > 1:
            fail(f"correlation {[a, b, rho]}: |rho| = {rho} > 1")
        i, j = names.index(a), names.index(b)
        R[i, j] = R[j, i] = rho
    cov = R * np.outer(sig, sig)
    env = {k: D(inp["variables"][k]["value"], np.eye(n)[i]) for i, k in enumerate(names)}
    results, grads = [], []
    for e in inp["expressions"]:
        try:
            d = evaluate(ast.parse(e, mode="eval"), env, n)
        except SyntaxError as ex:
            fail(f"expression {e!r}: syntax error: {ex.msg}")
        except (Bad, ValueError, ZeroDivisionError, OverflowError) as ex:
            fail(f"expression {e!r}: {ex}")
        if not math.isfinite(d.v) or not np.isfinite(d.g).all():
            fail(f"expression {e!r}: not finite at the measured values")
        results.append(d)
        grads.append(d.g)
    G = np.array(grads).reshape(len(results), n)
    C = G @ cov @ G.T
    s = np.sqrt(np.clip(np.diag(C), 0, None))
    corr = [[1.0 if i == j else (0.0 if s[i] == 0 or s[j] == 0 else float(C[i, j] / (s[i] * s[j])))
             for j in range(len(s))] for i in range(len(s))]
    out = {"results": [{"expr": e, "value": d.v, "sigma": float(si)} for e, d, si in zip(inp["expressions"], results, s)],
           "correlation": corr}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
PY
