"""The repaired /app/mlp against its README, on networks and data generated here."""
import os
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, "/app")
from mlp.data import Standardizer, load_csv  # noqa: E402
from mlp.net import MLP  # noqa: E402
from mlp.optim import Adam  # noqa: E402

SEED = int.from_bytes(os.urandom(4), "little")
RNG = np.random.default_rng(SEED)


def ref_loss(net, X, y, wd):
    A = X
    for i, (W, b) in enumerate(zip(net.W, net.b)):
        Z = A @ W + b
        A = Z if i == len(net.W) - 1 else np.maximum(Z, 0)
    z = A - A.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return -logp[np.arange(len(y)), y].mean() + 0.5 * wd * sum((W ** 2).sum() for W in net.W)


def numerical_check(wd):
    sizes = [int(RNG.integers(3, 7))] + [int(RNG.integers(4, 9)) for _ in range(RNG.integers(1, 3))] + [int(RNG.integers(2, 5))]
    net = MLP(sizes, seed=int(RNG.integers(1 << 30)), weight_decay=wd)
    for b in net.b:
        b[...] = RNG.normal(0, 0.5, b.shape)  # non-zero biases: a wrong bias gradient shows
    n = int(RNG.integers(5, 12))
    X = RNG.normal(0, 1.5, (n, sizes[0]))
    y = RNG.integers(0, sizes[-1], n)
    loss, grads = net.loss_and_grads(X, y)
    assert np.isclose(loss, ref_loss(net, X, y, wd), rtol=1e-10, atol=1e-12), "loss differs from the README"
    assert len(grads) == len(net.W)
    h = 1e-6
    for i, (dW, db) in enumerate(grads):
        for P, G in ((net.W[i], dW), (net.b[i], db)):
            assert G.shape == P.shape
            num = np.zeros_like(P)
            for idx in np.ndindex(P.shape):
                old = P[idx]
                P[idx] = old + h
                up = ref_loss(net, X, y, wd)
                P[idx] = old - h
                down = ref_loss(net, X, y, wd)
                P[idx] = old
                num[idx] = (up - down) / (2 * h)
            err = np.abs(G - num).max() / max(1e-8, np.abs(num).max())
            assert err < 1e-5, f"layer {i} {'W' if P is net.W[i] else 'b'}: relative gradient error {err:.2e}"


def test_gradients_without_weight_decay():
    for _ in range(3):
        numerical_check(0.0)


def test_gradients_and_loss_with_weight_decay():
    for _ in range(3):
        numerical_check(float(RNG.uniform(0.01, 0.3)))


def test_huge_logits_stay_finite_and_exact():
    net = MLP([3, 4, 3], seed=1)
    X = RNG.normal(0, 1, (6, 3))
    y = RNG.integers(0, 3, 6)
    net.W[-1][...] = RNG.normal(0, 1, net.W[-1].shape) * 3e4
    logits = net.forward(X)
    assert np.abs(logits).max() > 1e3
    loss, grads = net.loss_and_grads(X, y)
    assert np.isfinite(loss) and all(np.isfinite(g).all() for pair in grads for g in pair)
    assert np.isclose(loss, ref_loss(net, X, y, 0.0), rtol=1e-9)


def test_adam_follows_its_formula():
    shapes = [(3, 4), (4,), (2, 2)]
    params = [RNG.normal(0, 1, s) for s in shapes]
    mine = [p.copy() for p in params]
    lr, b1, b2, eps = 0.05, 0.8, 0.95, 1e-7
    opt = Adam(params, lr=lr, beta1=b1, beta2=b2, eps=eps)
    m = [np.zeros(s) for s in shapes]
    v = [np.zeros(s) for s in shapes]
    for t in range(1, 7):
        grads = [RNG.normal(0, 1, s) for s in shapes]
        opt.step(grads)
        for k, g in enumerate(grads):
            m[k] = b1 * m[k] + (1 - b1) * g
            v[k] = b2 * v[k] + (1 - b2) * g * g
            mine[k] -= lr * (m[k] / (1 - b1 ** t)) / (np.sqrt(v[k] / (1 - b2 ** t)) + eps)
        for p, q in zip(params, mine):
            assert np.allclose(p, q, rtol=1e-10, atol=1e-12), f"step {t}"


def test_standardizer_uses_fitted_statistics():
    A = RNG.normal(5, 3, (50, 4))
    A[:, 2] = 7.0
    B = RNG.normal(-2, 10, (20, 4))
    s = Standardizer()
    assert s.fit(A) is s
    want = (B - A.mean(axis=0)) / np.where(A.std(axis=0) == 0, 1, A.std(axis=0))
    assert np.allclose(s.transform(B), want)
    assert np.allclose(s.transform(A)[:, 2], 0.0) and np.isfinite(s.transform(A)).all()


def rings(n, rng, scale):
    """Three concentric noisy rings in two informative features, badly scaled, plus a noise column."""
    y = rng.integers(0, 3, n)
    r = 1.0 + 1.2 * y + rng.normal(0, 0.12, n)
    t = rng.uniform(0, 2 * np.pi, n)
    return np.c_[r * np.cos(t) * scale[0] + 50, r * np.sin(t) * scale[1], rng.normal(0, 1, n)], y


def write(path, X, y):
    with open(path, "w") as f:
        f.write("f1,f2,f3,label\n")
        for row, label in zip(X, y):
            f.write(",".join(repr(float(v)) for v in row) + f",{int(label)}\n")


def test_train_cli_end_to_end(tmp_path):
    rng = np.random.default_rng(SEED)
    for k in range(2):
        scale = rng.choice([1e-3, 1.0, 1e3], 2, replace=False)
        Xtr, ytr = rings(900, rng, scale)
        Xte, yte = rings(400, rng, scale)
        write(tmp_path / "train.csv", Xtr, ytr)
        write(tmp_path / "test.csv", Xte, yte)
        X2, y2 = load_csv(tmp_path / "test.csv")
        assert np.array_equal(y2, yte) and np.allclose(X2, Xte)
        preds = []
        for run in range(2):
            out = tmp_path / f"pred{k}{run}.txt"
            r = subprocess.run([sys.executable, "/app/mlp/train.py", "--train", str(tmp_path / "train.csv"),
                                "--test", str(tmp_path / "test.csv"), "--epochs", "60", "--seed", str(SEED % 1000 + k),
                                "--out", str(out)], capture_output=True, text=True, timeout=600)
            assert r.returncode == 0, r.stderr[-2000:]
            pred = np.array([int(x) for x in out.read_text().split()])
            assert len(pred) == len(yte)
            acc = (pred == yte).mean()
            assert r.stdout.strip() == f"test accuracy: {acc:.4f}"
            preds.append(pred)
        assert np.array_equal(preds[0], preds[1]), "same arguments, different predictions"
        assert acc >= 0.90, f"test accuracy {acc:.3f} on data set {k}"
