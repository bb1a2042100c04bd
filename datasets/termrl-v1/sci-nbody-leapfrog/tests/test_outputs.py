import json
import os
import resource
import signal
import subprocess
import tempfile

import numpy as np


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


def reference(cfg, steps, dt):
    pos = np.array(cfg["positions"], float)
    vel = np.array(cfg["velocities"], float)
    m = np.array(cfg["masses"], float)
    G, eps = cfg["G"], cfg["softening"]
    n = len(m)

    def acc(p):
        a = np.zeros_like(p)
        for i in range(n):
            d = p - p[i]
            r2 = (d * d).sum(1) + eps * eps
            w = G * m / r2 ** 1.5
            w[i] = 0.0
            a[i] = (w[:, None] * d).sum(0)
        return a

    a = acc(pos)
    for _ in range(steps):
        vel = vel + a * dt / 2
        pos = pos + vel * dt
        a = acc(pos)
        vel = vel + a * dt / 2
    kin = 0.5 * (m * (vel * vel).sum(1)).sum()
    pot = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            pot -= G * m[i] * m[j] / np.sqrt(((pos[i] - pos[j]) ** 2).sum() + eps * eps)
    return pos, vel, kin + pot


def run(cfg, steps, dt, limit=60):
    d = tempfile.mkdtemp()
    c, o = os.path.join(d, "c.json"), os.path.join(d, "o.json")
    with open(c, "w") as fh:
        json.dump(cfg, fh)
    proc, elapsed = run_cpu(["python3", "/app/nbody.py", c, str(steps), repr(dt), o], limit, "nbody.py")
    assert proc.returncode == 0, proc.stderr[-2000:]
    with open(o) as fh:
        out = json.load(fh)
    return np.array(out["positions"]), np.array(out["velocities"]), float(out["energy"]), elapsed


def random_cluster(seed, n):
    rng = np.random.default_rng(seed)
    return {"G": 1.0, "softening": 0.1, "masses": rng.uniform(0.5, 2.0, n).tolist(),
            "positions": rng.normal(0, 1, (n, 3)).tolist(), "velocities": rng.normal(0, 0.3, (n, 3)).tolist()}


def close(a, b, rtol=1e-9):
    return np.max(np.abs(a - b)) <= rtol * max(1.0, np.max(np.abs(b)))


def test_three_body_figure_eight():
    with open("/app/three_body.json") as fh:
        cfg = json.load(fh)
    pos, vel, E, _ = run(cfg, 300, 0.002)
    rp, rv, rE = reference(cfg, 300, 0.002)
    assert close(pos, rp) and close(vel, rv) and abs(E - rE) <= 1e-9 * abs(rE)


def test_random_cluster_matches_scheme():
    cfg = random_cluster(1, 12)
    pos, vel, E, _ = run(cfg, 200, 0.001)
    rp, rv, rE = reference(cfg, 200, 0.001)
    assert close(pos, rp) and close(vel, rv) and abs(E - rE) <= 1e-9 * abs(rE)


def test_time_reversible():
    cfg = random_cluster(2, 8)
    pos, vel, _, _ = run(cfg, 400, 0.002)
    back = dict(cfg, positions=pos.tolist(), velocities=(-vel).tolist())
    pos2, vel2, _, _ = run(back, 400, 0.002)
    assert np.max(np.abs(pos2 - np.array(cfg["positions"]))) < 1e-8
    assert np.max(np.abs(-vel2 - np.array(cfg["velocities"]))) < 1e-8


def test_energy_bounded_long_run():
    cfg = {"G": 1.0, "softening": 0.01, "masses": [1.0, 1e-3],
           "positions": [[0, 0, 0], [1, 0, 0]], "velocities": [[0, 0, 0], [0, 1.0, 0]]}
    _, _, E0, _ = run(cfg, 0, 0.01)
    _, _, E1, _ = run(cfg, 20000, 0.005)
    assert abs(E1 - E0) < 1e-4 * abs(E0)


def test_large_system_fast():
    small = random_cluster(3, 300)
    rp, rv, _ = reference(small, 3, 1e-4)
    p3, v3, _, _ = run(small, 3, 1e-4)
    assert close(p3, rp) and close(v3, rv)
    cfg = random_cluster(3, 300)
    pos, vel, E, elapsed = run(cfg, 1000, 1e-4, limit=120)
    assert elapsed < 60, elapsed   # CPU seconds; the limit is 30 s, the margin is for a slower CPU
    assert np.all(np.isfinite(pos)) and np.all(np.isfinite(vel))
