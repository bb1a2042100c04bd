import subprocess

import numpy as np
from scipy.integrate import solve_ivp

G = 9.81


def reference(h0, k, c, n):
    """Independent numerical reference: tight-tolerance integration with event location."""
    def rhs(t, s):
        return [s[1], -G - k * s[1] * abs(s[1])]

    def ground(t, s):
        return s[0]
    ground.terminal = True
    ground.direction = -1

    def apex(t, s):
        return s[1]
    apex.direction = -1

    t0, state = 0.0, [h0, 0.0]
    times, heights = [], []
    while len(times) < n + 1:
        sol = solve_ivp(rhs, (t0, t0 + 1e4), state, events=[ground, apex], rtol=1e-13, atol=1e-15,
                        method="DOP853")
        if len(times) > 0:
            heights.append(sol.y_events[1][0][0])
        t_hit = sol.t_events[0][0]
        v_hit = sol.y_events[0][0][1]
        times.append(t_hit)
        t0, state = t_hit, [0.0, -c * v_hit]
    return np.array(times[:n]), np.array(heights[:n])


def run(h0, k, c, n):
    proc = subprocess.run(["python3", "/app/bounce.py", repr(h0), repr(k), repr(c), str(n)],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [l.split() for l in proc.stdout.splitlines() if l.strip()]
    assert len(rows) == n and all(len(r) == 2 for r in rows)
    arr = np.array(rows, dtype=float)
    return arr[:, 0], arr[:, 1]


def close(a, b, rtol=1e-9):
    return np.all(np.abs(a - b) <= rtol * np.abs(b))


def test_no_drag_closed_form():
    h0, c, n = 20.0, 0.7, 12
    t, h = run(h0, 0.0, c, n)
    t1 = np.sqrt(2 * h0 / G)
    v1 = G * t1
    vs = v1 * c ** np.arange(1, n + 1)
    exp_h = vs ** 2 / (2 * G)
    exp_t = t1 + np.concatenate([[0.0], np.cumsum(2 * vs / G)[:-1]])
    assert close(t, exp_t) and close(h, exp_h)


def test_moderate_drag():
    h0, k, c, n = 10.0, 0.05, 0.8, 8
    t, h = run(h0, k, c, n)
    rt, rh = reference(h0, k, c, n)
    assert close(t, rt) and close(h, rh)


def test_strong_drag_from_height():
    h0, k, c, n = 800.0, 0.9, 0.9, 10
    t, h = run(h0, k, c, n)
    rt, rh = reference(h0, k, c, n)
    assert close(t, rt) and close(h, rh)


def test_many_bounces_tiny_heights():
    h0, k, c, n = 0.5, 0.2, 0.3, 40
    t, h = run(h0, k, c, n)
    # with C = 0.3 the heights fall below 1e-30 m quickly; relative accuracy still required
    rt, rh = reference(h0, k, c, 6)
    assert close(t[:6], rt) and close(h[:6], rh)
    assert np.all(np.diff(t) >= 0) and np.all(h > 0) and np.all(np.diff(h) < 0)
    # once drag is negligible each apex is C^2 times the previous one
    assert np.allclose(h[21:] / h[20:-1], c * c, rtol=1e-6)


def test_weak_drag_many_bounces():
    h0, k, c, n = 3.0, 1e-3, 0.95, 30
    t, h = run(h0, k, c, n)
    rt, rh = reference(h0, k, c, n)
    assert close(t, rt) and close(h, rh)
