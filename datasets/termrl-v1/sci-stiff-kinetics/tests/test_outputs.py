import json
import os
import random
import resource
import signal
import subprocess
import tempfile

import numpy as np
from scipy.integrate import solve_ivp


# Speed limits measure CPU time, not wall-clock time: other work on the machine stretches the second,
# never the first. numpy is held to one thread so that its thread pool cannot add CPU time of its own.
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
HANG_GUARD_S = 600   # wall-clock: only stops a program that blocks without using CPU


def run_cpu(cmd, cpu_limit, name):
    """Run ``cmd``; return (completed process, CPU seconds it used: user + system, from getrusage).
    RLIMIT_CPU stops it once it has used ``cpu_limit`` seconds of CPU."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=HANG_GUARD_S, preexec_fn=limit,
                          env={**os.environ, **ONE_THREAD})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert proc.returncode != -signal.SIGXCPU, f"{name} used more than {cpu_limit} s of CPU time"
    return proc, cpu


def reference(config):
    species = config["species"]
    idx = {s: i for i, s in enumerate(species)}
    n = len(species)
    R = []
    for r in config["reactions"]:
        reac = [(idx[s], m) for s, m in r["reactants"].items()]
        ch = np.zeros(n)
        for s, m in r["reactants"].items():
            ch[idx[s]] -= m
        for s, m in r["products"].items():
            ch[idx[s]] += m
        R.append((r["k"], reac, ch))

    def f(t, y):
        d = np.zeros(n)
        for k, reac, ch in R:
            rate = k
            for i, m in reac:
                rate *= y[i] ** m
            d += rate * ch
        return d

    def jac(t, y):
        J = np.zeros((n, n))
        for k, reac, ch in R:
            for a, (i, m) in enumerate(reac):
                g = k * m * y[i] ** (m - 1)
                for b, (j, mj) in enumerate(reac):
                    if b != a:
                        g *= y[j] ** mj
                J[:, i] += g * ch
        return J

    y0 = np.array([config["initial"].get(s, 0.0) for s in species], float)
    sol = solve_ivp(f, (0, config["times"][-1]), y0, method="Radau", jac=jac, t_eval=config["times"],
                    rtol=1e-11, atol=1e-18)
    assert sol.success
    return {s: sol.y[i] for i, s in enumerate(species)}


def run(config, limit=10):
    d = tempfile.mkdtemp()
    cfg, out = os.path.join(d, "c.json"), os.path.join(d, "o.json")
    with open(cfg, "w") as fh:
        json.dump(config, fh)
    proc, elapsed = run_cpu(["python3", "/app/kinetics.py", cfg, out], limit + 2, "kinetics.py")
    assert proc.returncode == 0, proc.stderr[-2000:]
    with open(out) as fh:
        return json.load(fh), elapsed


def check(config):
    got, elapsed = run(config)
    assert elapsed < 10, elapsed   # CPU seconds (user + system); the limit is 10 s
    ref = reference(config)
    assert [float(t) for t in got["times"]] == [float(t) for t in config["times"]]
    for s in config["species"]:
        vals = np.array(got["concentrations"][s], float)
        assert vals.shape == ref[s].shape
        err = np.abs(vals - ref[s])
        tol = 1e-6 * np.abs(ref[s]) + 1e-12
        assert np.all(err <= tol), (s, vals, ref[s])


def robertson(k1, k2, k3, times):
    return {
        "species": ["A", "B", "C"],
        "reactions": [
            {"reactants": {"A": 1}, "products": {"B": 1}, "k": k1},
            {"reactants": {"B": 2}, "products": {"B": 1, "C": 1}, "k": k2},
            {"reactants": {"B": 1, "C": 1}, "products": {"A": 1, "C": 1}, "k": k3},
        ],
        "initial": {"A": 1.0},
        "times": times,
    }


def test_bundled_robertson():
    with open("/app/robertson.json") as fh:
        check(json.load(fh))


def test_robertson_variants():
    check(robertson(0.02, 5.0e7, 2.0e4, [0.01, 1.0, 100.0, 1e4, 1e5, 1e6]))
    check(robertson(0.1, 1.0e6, 5.0e3, [0.5, 5.0, 50.0, 500.0]))


def test_linear_chain_exact():
    # A -> B -> C with distinct rates has a closed form
    k1, k2 = 3.0, 0.7
    times = [0.1, 0.5, 1.0, 2.0, 5.0, 10.0]
    cfg = {"species": ["X", "Y", "Z"],
           "reactions": [{"reactants": {"X": 1}, "products": {"Y": 1}, "k": k1},
                         {"reactants": {"Y": 1}, "products": {"Z": 1}, "k": k2}],
           "initial": {"X": 2.0}, "times": times}
    got, _ = run(cfg)
    t = np.array(times)
    x = 2.0 * np.exp(-k1 * t)
    y = 2.0 * k1 / (k2 - k1) * (np.exp(-k1 * t) - np.exp(-k2 * t))
    for s, exact in (("X", x), ("Y", y), ("Z", 2.0 - x - y)):
        assert np.all(np.abs(np.array(got["concentrations"][s]) - exact) <= 1e-6 * np.abs(exact) + 1e-12)


def test_random_stiff_networks():
    rng = random.Random(8080)
    for _ in range(3):
        n = 6
        species = [f"S{i}" for i in range(n)]
        reactions = []
        for _ in range(9):
            a, b, c = rng.sample(species, 3)
            kind = rng.random()
            if kind < 0.4:
                reactions.append({"reactants": {a: 1}, "products": {b: 1}, "k": 10 ** rng.uniform(-2, 3)})
            elif kind < 0.8:
                reactions.append({"reactants": {a: 1, b: 1}, "products": {c: 1, b: 1}, "k": 10 ** rng.uniform(2, 7)})
            else:
                reactions.append({"reactants": {a: 2}, "products": {c: 1, a: 1}, "k": 10 ** rng.uniform(3, 8)})
        initial = {s: rng.uniform(0.1, 1.0) for s in species[:3]}
        check({"species": species, "reactions": reactions, "initial": initial,
               "times": [0.001, 0.1, 10.0, 1000.0, 1e5]})


def test_output_format_and_conservation():
    cfg = robertson(0.04, 3.0e7, 1.0e4, [1.0, 10.0, 1e3])
    cfg["species"] = ["C", "A", "B"]   # order of species in the config must not matter
    got, _ = run(cfg)
    conc = got["concentrations"]
    assert set(conc) == {"A", "B", "C"}
    total = np.array(conc["A"]) + np.array(conc["B"]) + np.array(conc["C"])
    assert np.all(np.abs(total - 1.0) < 1e-9)
    ref = reference(cfg)
    assert abs(conc["B"][-1] - ref["B"][-1]) <= 1e-6 * abs(ref["B"][-1]) + 1e-12
