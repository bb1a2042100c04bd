import json
import math
import os
import random
import resource
import signal
import subprocess
import tempfile

import numpy as np
from scipy.integrate import quad


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


def exact(profile, D, x, t, nmax=None):
    px = [p[0] for p in profile]
    pu = [p[1] for p in profile]
    f = lambda s: np.interp(s, px, pu)
    if nmax is None:
        nmax = int(math.sqrt(60.0 / (D * math.pi ** 2 * t))) + 60
    total = 0.0
    for n in range(1, nmax + 1):
        k = n * math.pi
        # numerical coefficient, integrating piece by piece (smooth on each piece)
        b = 0.0
        for a, c in zip(px[:-1], px[1:]):
            b += quad(lambda s: f(s) * math.sin(k * s), a, c, limit=200, epsabs=1e-14)[0]
        total += 2 * b * math.exp(-D * k * k * t) * math.sin(k * x)
    return total


def exact_fast(profile, D, x, t):
    """Sine series with coefficients from the slope jumps of the profile: b_n = -2/k^2 sum dS_i sin(k x_i)."""
    px = np.array([p[0] for p in profile])
    pu = np.array([p[1] for p in profile])
    slopes = np.diff(pu) / np.diff(px)
    jumps = np.diff(slopes)
    xi = px[1:-1]
    nmax = int(math.sqrt(60.0 / (D * math.pi ** 2 * t))) + 60
    k = np.arange(1, nmax + 1) * math.pi
    b = -2.0 / k ** 2 * (np.sin(np.outer(k, xi)) @ jumps)
    return float(np.sum(b * np.exp(-D * k * k * t) * np.sin(k * x)))


def run(cfg, limit=10):
    d = tempfile.mkdtemp()
    path = os.path.join(d, "c.json")
    with open(path, "w") as fh:
        json.dump(cfg, fh)
    proc, elapsed = run_cpu(["python3", "/app/heat.py", path], limit * 2 + 5, "heat.py")
    assert proc.returncode == 0, proc.stderr[-2000:]
    vals = [float(v) for v in proc.stdout.split()]
    assert len(vals) == len(cfg["queries"])
    return vals, elapsed


def random_profile(rng, npts):
    xs = sorted(rng.uniform(0.01, 0.99) for _ in range(npts - 2))
    return [[0.0, 0.0]] + [[x, rng.uniform(-10, 10)] for x in xs] + [[1.0, 0.0]]


def test_single_mode_tent_exactness():
    # a tent profile; spot-check against the independent series at moderate times
    prof = [[0.0, 0.0], [0.5, 1.0], [1.0, 0.0]]
    cfg = {"D": 1.0, "profile": prof, "queries": [[0.5, 0.01], [0.25, 0.05], [0.1, 0.3]]}
    vals, _ = run(cfg)
    for (x, t), v in zip(cfg["queries"], vals):
        # closed form for the tent: b_n = 8 sin(n pi / 2) / (n pi)^2
        ref = sum(8 * math.sin(n * math.pi / 2) / (n * math.pi) ** 2 * math.exp(-(n * math.pi) ** 2 * t)
                  * math.sin(n * math.pi * x) for n in range(1, 4000))
        assert abs(v - ref) <= 1e-8


def test_example_config():
    with open("/app/example.json") as fh:
        cfg = json.load(fh)
    vals, _ = run(cfg)
    for (x, t), v in zip(cfg["queries"], vals):
        assert abs(v - exact(cfg["profile"], cfg["D"], x, t)) <= 1e-8


def test_random_profiles_short_times():
    rng = random.Random(12)
    for _ in range(4):
        prof = random_profile(rng, 8)
        D = rng.uniform(0.05, 2.0)
        queries = [[rng.uniform(0, 1), rng.choice([1e-4, 3e-4, 1e-3])] for _ in range(4)]
        vals, _ = run({"D": D, "profile": prof, "queries": queries})
        for (x, t), v in zip(queries, vals):
            assert abs(v - exact_fast(prof, D, x, t)) <= 1e-8, (x, t)


def test_boundaries_and_long_times():
    rng = random.Random(13)
    prof = random_profile(rng, 12)
    D = 3.0
    queries = [[0.0, 0.5], [1.0, 0.5], [0.37, 100.0], [0.5, 0.2]]
    vals, _ = run({"D": D, "profile": prof, "queries": queries})
    # Exact values are 0 at both ends and ~0 after a long time; the bar is the instruction's 1e-8.
    assert abs(vals[0]) <= 1e-8 and abs(vals[1]) <= 1e-8
    assert abs(vals[2]) <= 1e-8
    assert abs(vals[3] - exact_fast(prof, D, 0.5, 0.2)) <= 1e-8


def test_many_queries_fast():
    rng = random.Random(14)
    prof = random_profile(rng, 50)
    D = 0.01
    queries = [[rng.uniform(0, 1), 10 ** rng.uniform(-4, 2)] for _ in range(2000)]
    vals, elapsed = run({"D": D, "profile": prof, "queries": queries})
    assert elapsed < 20, elapsed   # CPU seconds; the limit is 10 s, the margin is for a slower CPU
    for i in range(0, 2000, 50):
        x, t = queries[i]
        assert abs(vals[i] - exact_fast(prof, D, x, t)) <= 1e-8
