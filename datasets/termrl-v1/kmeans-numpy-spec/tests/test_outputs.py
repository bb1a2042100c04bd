import importlib.util
import json
import subprocess

import numpy as np
import pytest


def ref_assign(X, C):
    out = np.empty(len(X), dtype=int)
    for i, x in enumerate(X):
        best, bj = None, 0
        for j, c in enumerate(C):
            dd = float(np.sum((x - c) ** 2))
            if best is None or dd < best:
                best, bj = dd, j
        out[i] = bj
    return out


def ref_init(X, k):
    idx = [0]
    while len(idx) < k:
        best, bi = -1.0, 0
        for i, x in enumerate(X):
            m = min(float(np.sum((x - X[j]) ** 2)) for j in idx)
            if m > best:
                best, bi = m, i
        idx.append(bi)
    return X[idx].astype(float)


def ref_kmeans(X, C, max_iter):
    C = C.astype(float).copy()
    lab = ref_assign(X, C)
    it = 0
    while it < max_iter:
        for j in range(len(C)):
            if (lab == j).any():
                C[j] = X[lab == j].mean(axis=0)
        it += 1
        new = ref_assign(X, C)
        same = (new == lab).all()
        lab = new
        if same:
            break
    return C, lab, it, float(((X - C[lab]) ** 2).sum())


@pytest.fixture(scope="module")
def mod():
    spec = importlib.util.spec_from_file_location("kmeans_mod", "/app/kmeans.py")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def blobs(seed, n, d, k):
    rng = np.random.default_rng(seed)
    centers = rng.uniform(-10, 10, size=(k, d))
    X = np.vstack([c + rng.normal(0, 2.5, size=(n // k, d)) for c in centers])
    rng.shuffle(X)
    return X


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_function_matches_reference(mod, seed):
    X = blobs(seed, 120, 3, 4)
    init = X[[5, 17, 33, 70, 99]]
    C, lab, it, inert = mod.kmeans(X, init.copy(), 100)
    eC, elab, eit, einert = ref_kmeans(X, init, 100)
    assert np.asarray(lab).tolist() == elab.tolist()
    assert np.allclose(np.asarray(C), eC, atol=1e-7)
    assert int(it) == eit
    assert float(inert) == pytest.approx(einert, rel=1e-9)


def test_empty_cluster_keeps_position(mod):
    X = blobs(11, 90, 2, 3)
    init = np.vstack([X[:3], [[500.0, 500.0]]])
    C, lab, it, inert = mod.kmeans(X, init.copy(), 50)
    assert np.allclose(np.asarray(C)[3], [500.0, 500.0])
    assert 3 not in np.asarray(lab).tolist()
    eC, elab, eit, einert = ref_kmeans(X, init, 50)
    assert np.allclose(np.asarray(C), eC, atol=1e-7) and int(it) == eit


def test_max_iter_respected(mod):
    X = blobs(21, 200, 2, 6)
    init = X[:6]
    C, lab, it, inert = mod.kmeans(X, init.copy(), 2)
    eC, elab, eit, einert = ref_kmeans(X, init, 2)
    assert int(it) == 2 == eit
    assert np.allclose(np.asarray(C), eC, atol=1e-7)
    assert np.asarray(lab).tolist() == elab.tolist()


def test_farthest_init(mod):
    X = blobs(31, 150, 4, 5)
    got = np.asarray(mod.farthest_init(X, 5))
    assert np.allclose(got, ref_init(X, 5))


@pytest.mark.parametrize("seed,k", [(41, 3), (42, 5), (43, 7)])
def test_cli(tmp_path, seed, k):
    X = blobs(seed, 140, 3, k)
    inp = tmp_path / "in.csv"
    with open(inp, "w") as f:
        f.write("a,b,c\n")
        for row in X:
            f.write(",".join(repr(float(v)) for v in row) + "\n")
    out = tmp_path / "out.json"
    r = subprocess.run(["python3", "/app/kmeans.py", str(inp), str(k), str(out), "--max-iter", "60"],
                       capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr
    got = json.loads(out.read_text())
    eC, elab, eit, einert = ref_kmeans(X, ref_init(X, k), 60)
    assert got["labels"] == elab.tolist()
    assert np.allclose(np.array(got["centroids"]), eC, atol=1e-7)
    assert got["n_iter"] == eit
    assert got["inertia"] == pytest.approx(einert, rel=1e-9)
