"""/app/md/fast.py against the definition in reference.py on systems generated here (random boxes,
cutoffs, wrapped coordinates, clusters, boxes 2-3 cutoffs wide), and the CPU-time bar at N = 20000
(process CPU time around the call, measured in a child process that cannot import SciPy)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

SEED = int.from_bytes(os.urandom(4), "little")
RNG = np.random.default_rng(SEED)
CHILD = r"""
import json, sys, time
import numpy as np
sys.modules["scipy"] = None  # SciPy is not allowed
sys.path.insert(0, "/app/md")
import fast
args = json.loads(sys.argv[1])
data = np.load(args["input"])
pos = data["pos"]
before = pos.copy()
t = time.process_time()
energy, forces, virial = fast.compute(pos, float(data["L"]), float(data["rc"]))
cpu = time.process_time() - t
forces = np.asarray(forces)
np.savez(args["output"], energy=float(energy), forces=forces, virial=float(virial), cpu=cpu,
         untouched=bool(np.array_equal(before, pos)))
"""


def run_fast(tmp_path, pos, L, rc):
    inp, out = tmp_path / f"in{RNG.integers(1 << 30)}.npz", tmp_path / f"out{RNG.integers(1 << 30)}.npz"
    np.savez(inp, pos=pos, L=L, rc=rc)
    r = subprocess.run([sys.executable, "-c", CHILD, json.dumps({"input": str(inp), "output": str(out)})],
                       capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stderr[-3000:]
    res = np.load(out)
    assert res["untouched"], "compute() modified its pos argument"
    assert res["forces"].shape == pos.shape
    return float(res["energy"]), res["forces"], float(res["virial"]), float(res["cpu"])


def brute(pos, L, rc, rows=None):
    """Every pair (or the pairs of `rows` with everyone), minimum image; vectorised definition."""
    pos = np.asarray(pos, dtype=float)
    n = len(pos)
    rows = np.arange(n) if rows is None else np.asarray(rows)
    shift = 4.0 * (rc ** -12 - rc ** -6)
    energy = virial = 0.0
    forces = np.zeros((len(rows), 3))
    for a in range(0, len(rows), 200):
        r_idx = rows[a:a + 200]
        d = pos[r_idx, None, :] - pos[None, :, :]
        d -= L * np.round(d / L)
        r2 = (d * d).sum(-1)
        mask = (r2 < rc * rc) & (r_idx[:, None] != np.arange(n)[None, :])
        safe = np.where(mask, r2, 1.0)
        inv6 = safe ** -3
        e = np.where(mask, 4 * (inv6 * inv6 - inv6) - shift, 0.0)
        fs = np.where(mask, (48 * inv6 * inv6 - 24 * inv6) / safe, 0.0)
        forces[a:a + 200] = (fs[..., None] * d).sum(1)
        energy += 0.5 * e.sum()
        virial += 0.5 * (fs * r2).sum()
    return energy, forces, virial


def cell_reference(pos, L, rc):
    """The test's own cell-list evaluation (for the large system), checked against brute() below."""
    pos = np.mod(pos, L)
    n, nc = len(pos), int(L // rc)
    c3 = np.minimum((pos * (nc / L)).astype(int), nc - 1)
    cell = (c3[:, 0] * nc + c3[:, 1]) * nc + c3[:, 2]
    members = [[] for _ in range(nc ** 3)]
    for idx, c in enumerate(cell):
        members[c].append(idx)
    members = [np.array(m, dtype=int) for m in members]
    shift = 4.0 * (rc ** -12 - rc ** -6)
    energy = virial = 0.0
    for c in range(nc ** 3):
        if not len(members[c]):
            continue
        x, y, z = c // (nc * nc), (c // nc) % nc, c % nc
        nbs = {(((x + dx) % nc) * nc + (y + dy) % nc) * nc + (z + dz) % nc
               for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)}
        others = np.concatenate([members[b] for b in nbs])
        i = np.repeat(members[c], len(others))
        j = np.tile(others, len(members[c]))
        keep = i < j
        i, j = i[keep], j[keep]
        d = pos[i] - pos[j]
        d -= L * np.round(d / L)
        r2 = (d * d).sum(1)
        m = r2 < rc * rc
        inv6 = r2[m] ** -3
        energy += (4 * (inv6 * inv6 - inv6) - shift).sum()
        virial += ((48 * inv6 * inv6 - 24 * inv6)).sum()
    return energy, virial


def jittered(n, L, jitter=0.1):
    k = int(np.ceil(n ** (1 / 3)))
    a = L / k
    g = np.stack(np.meshgrid(*[np.arange(k)] * 3, indexing="ij"), -1).reshape(-1, 3)
    g = g[RNG.permutation(len(g))[:n]] * a + a / 2
    return g + RNG.normal(0, jitter * a, g.shape)


def assert_matches(got, want, what):
    e, f, v = got[:3]
    we, wf, wv = want
    assert abs(e - we) <= 1e-8 * max(1.0, abs(we)), f"{what}: energy {e} vs {we}"
    assert abs(v - wv) <= 1e-8 * max(1.0, abs(wv)), f"{what}: virial {v} vs {wv}"
    err = np.abs(f - wf).max() / max(1e-12, np.abs(wf).max())
    assert err <= 1e-8, f"{what}: force error {err:.2e} relative"


def test_matches_the_given_reference_on_a_tiny_system(tmp_path):
    sys.path.insert(0, "/app/md")
    import reference
    L = float(RNG.uniform(6, 9))
    pos = jittered(60, L) + RNG.integers(-2, 3, (60, 3)) * L
    rc = float(RNG.uniform(1.8, L / 2))
    assert_matches(run_fast(tmp_path, pos, L, rc), reference.compute(pos, L, rc), "reference.py")


def test_random_systems(tmp_path):
    for _ in range(5):
        n = int(RNG.integers(100, 900))
        rho = float(RNG.uniform(0.2, 1.0))
        L = (n / rho) ** (1 / 3)
        rc = float(RNG.uniform(1.2, min(3.0, L / 2)))
        pos = jittered(n, L, 0.15)
        assert_matches(run_fast(tmp_path, pos, L, rc), brute(pos, L, rc), f"n={n} L={L:.2f} rc={rc:.2f}")


def test_wrapped_coordinates_and_narrow_boxes(tmp_path):
    for cells in (2.0, 2.3, 2.7, 3.0, 3.4):
        rc = float(RNG.uniform(1.5, 2.5))
        L = cells * rc
        n = int(0.6 * L ** 3)
        pos = jittered(n, L) + RNG.integers(-3, 4, (n, 3)) * L
        assert_matches(run_fast(tmp_path, pos, L, rc), brute(pos, L, rc), f"{cells} cutoffs per side")


def test_clustered_particles(tmp_path):
    L = float(RNG.uniform(16, 22))
    centre = RNG.uniform(0, L, 3)
    cluster = centre + jittered(1200, 9.0, 0.1) - 4.5
    gas = jittered(300, L, 0.2)
    pos = np.r_[cluster, gas]
    rc = 2.5
    assert_matches(run_fast(tmp_path, pos, L, rc), brute(pos, L, rc), "clustered")


def test_production_size_within_the_cpu_bar(tmp_path):
    small = jittered(400, 9.0)
    e, _, v = brute(small, 9.0, 2.5)
    ce, cv = cell_reference(small, 9.0, 2.5)
    assert np.isclose(ce, e, rtol=1e-10) and np.isclose(cv, v, rtol=1e-10)  # the test's own helper
    n, rc = 20000, 2.5
    L = (n / 0.8) ** (1 / 3)
    pos = jittered(n, L, 0.12)
    energy, forces, virial, cpu = run_fast(tmp_path, pos, L, rc)
    we, wv = cell_reference(pos, L, rc)
    assert abs(energy - we) <= 1e-8 * abs(we) and abs(virial - wv) <= 1e-8 * abs(wv)
    rows = RNG.choice(n, 60, replace=False)
    _, wf, _ = brute(pos, L, rc, rows)
    err = np.abs(forces[rows] - wf).max() / np.abs(wf).max()
    assert err <= 1e-8, f"force error {err:.2e}"
    assert np.abs(forces.sum(0)).max() <= 1e-6 * np.abs(forces).max(), "forces must sum to zero"
    assert cpu <= 5.0, f"one call took {cpu:.2f} s of CPU time (bar: 5 s)"
