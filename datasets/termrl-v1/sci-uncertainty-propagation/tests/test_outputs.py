"""uprop.py on inputs written here; expected values from an independent derivation (derivatives by complex
step on the expression evaluated with numpy, which is exact to rounding for analytic functions)."""
import json
import math
import subprocess

import numpy as np
import pytest

FUNCS = {"sin": np.sin, "cos": np.cos, "tan": np.tan, "exp": np.exp, "log": np.log, "sqrt": np.sqrt, "pi": np.pi}


def expected(inp):
    names = list(inp["variables"])
    x0 = np.array([inp["variables"][n]["value"] for n in names], float)
    s = np.array([inp["variables"][n]["sigma"] for n in names], float)
    R = np.eye(len(names))
    for a, b, rho in inp.get("correlations", []):
        i, j = names.index(a), names.index(b)
        R[i, j] = R[j, i] = rho
    cov = R * np.outer(s, s)
    vals, grads = [], []
    for e in inp["expressions"]:
        code = compile(e, "<expr>", "eval")
        f = lambda x: eval(code, {"__builtins__": {}}, dict(FUNCS, **dict(zip(names, x))))
        vals.append(float(np.real(f(x0.astype(complex)))))
        g = np.zeros(len(names))
        h = 1e-30
        for k in range(len(names)):
            xc = x0.astype(complex)
            xc[k] += 1j * h * max(1.0, abs(x0[k]))
            g[k] = np.imag(f(xc)) / (h * max(1.0, abs(x0[k])))
        grads.append(g)
    G = np.array(grads)
    C = G @ cov @ G.T
    sig = np.sqrt(np.clip(np.diag(C), 0, None))
    corr = np.zeros_like(C)
    for i in range(len(sig)):
        for j in range(len(sig)):
            corr[i, j] = 1.0 if i == j else (0.0 if sig[i] == 0 or sig[j] == 0 else C[i, j] / (sig[i] * sig[j]))
    return vals, sig, corr


def run(tmp_path, inp):
    p = tmp_path / "in.json"
    p.write_text(json.dumps(inp))
    return subprocess.run(["python3", "/app/uprop.py", str(p)], capture_output=True, text=True, timeout=60)


def check(tmp_path, inp):
    r = run(tmp_path, inp)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    vals, sig, corr = expected(inp)
    assert [x["expr"] for x in out["results"]] == inp["expressions"]
    for x, v, sg in zip(out["results"], vals, sig):
        assert math.isclose(x["value"], v, rel_tol=1e-7, abs_tol=1e-12), (x, v)
        assert math.isclose(x["sigma"], sg, rel_tol=1e-7, abs_tol=1e-12), (x, sg)
    got = np.array(out["correlation"], float)
    assert got.shape == corr.shape
    assert np.max(np.abs(got - corr)) <= 1e-7, (got, corr)
    return out


def test_example_with_correlation(tmp_path):
    check(tmp_path, {"variables": {"m": {"value": 2.5, "sigma": 0.02}, "v": {"value": 3.1, "sigma": 0.05},
                                   "theta": {"value": 0.6, "sigma": 0.01}},
                     "correlations": [["m", "v", 0.4]],
                     "expressions": ["0.5*m*v**2", "v*sin(theta)/m", "m*v", "theta"]})


def test_repeated_variables_are_one_variable(tmp_path):
    out = check(tmp_path, {"variables": {"a": {"value": 3.0, "sigma": 0.3}, "b": {"value": -1.5, "sigma": 0.2}},
                           "expressions": ["a - a", "a/a", "a*a - a**2", "(a + b) - (b + a) + a", "a*b/b"]})
    assert out["results"][0]["sigma"] == 0 and out["results"][1]["sigma"] == 0
    assert abs(out["results"][3]["sigma"] - 0.3) < 1e-12
    assert out["correlation"][0][0] == 1.0 and out["correlation"][0][3] == 0.0


def test_precedence_and_functions(tmp_path):
    check(tmp_path, {"variables": {"x": {"value": 0.7, "sigma": 0.05}, "y": {"value": 2.0, "sigma": 0.1},
                                   "z": {"value": 1.3, "sigma": 0.02}},
                     "correlations": [["x", "z", -0.6], ["z", "y", 0.25]],
                     "expressions": ["-x**2", "2**-y", "x**y**0.5", "-(x - y)**3 / z", "exp(-x)*cos(pi*z)",
                                     "sqrt(y)*log(z)+tan(x/2)", "+x - -y", "1e-3*y**2 + 2.5E2/z"]})


def test_many_correlated_variables(tmp_path):
    rng = np.random.default_rng(12)
    n = 12
    names = [f"q{i}" for i in range(n)]
    variables = {k: {"value": float(rng.uniform(0.5, 3)), "sigma": float(rng.uniform(0.001, 0.2))} for k in names}
    A = rng.normal(size=(n, n))
    S = A @ A.T + n * np.eye(n)
    D = np.sqrt(np.diag(S))
    Rm = S / np.outer(D, D)
    corrs = [[names[i], names[j], float(Rm[i, j])] for i in range(n) for j in range(i + 1, n) if (i + j) % 3 == 0]
    exprs = ["+".join(f"{k}*{k}" for k in names), f"{names[0]}*{names[5]}/{names[7]} - sqrt({names[3]})",
             f"exp({names[1]}-{names[2]})*log({names[4]}+{names[6]})", f"({names[8]}+{names[9]})**3/({names[10]}*{names[11]})"]
    check(tmp_path, {"variables": variables, "correlations": corrs, "expressions": exprs})


def test_extreme_magnitudes(tmp_path):
    check(tmp_path, {"variables": {"G": {"value": 6.674e-11, "sigma": 1.5e-15}, "M": {"value": 5.972e24, "sigma": 6e20},
                                   "r": {"value": 6.371e6, "sigma": 1e3}},
                     "correlations": [["M", "r", 0.1]],
                     "expressions": ["G*M/r**2", "sqrt(2*G*M/r)", "G*M"]})


@pytest.mark.parametrize("bad,needle", [
    ({"expressions": ["x + w"]}, "x + w"),
    ({"expressions": ["x + 1", "floor(x)"]}, "floor(x)"),
    ({"expressions": ["(x + 1"]}, "(x + 1"),
    ({"expressions": ["log(x - 5)"]}, "log(x - 5)"),
    ({"expressions": ["x / (y - y)"]}, "x / (y - y)"),
    ({"expressions": ["x"], "correlations": [["x", "nope", 0.1]]}, "nope"),
    ({"expressions": ["x"], "correlations": [["x", "y", 1.5]]}, "1.5"),
])
def test_errors_exit_2(tmp_path, bad, needle):
    inp = {"variables": {"x": {"value": 2.0, "sigma": 0.1}, "y": {"value": 1.0, "sigma": 0.1}}}
    inp.update(bad)
    r = run(tmp_path, inp)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert r.stdout.strip() == ""
    assert needle in r.stderr, r.stderr
