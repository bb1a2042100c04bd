#!/bin/bash
# Plausible but wrong: everything but Adam's off-by-one bias correction (training still converges).
# Seven faults: an overflowing softmax and a log of an underflowed probability (log-softmax fixes both),
# the bias gradient averaged a second time, weight decay on biases, the ReLU mask taken from the
# activation (always >= 0), Adam's bias correction one step ahead, features and labels shuffled with
# different permutations, and the standardizer using the statistics of what it transforms (and std 0).
set -euo pipefail
python3 - <<'PY'
from pathlib import Path


def fix(path, pairs):
    p = Path(path)
    s = p.read_text()
    for old, new in pairs:
        assert s.count(old) == 1, (path, old)
        s = s.replace(old, new)
    p.write_text(s)


fix("/app/mlp/net.py", [
    ("def softmax(z):\n    e = np.exp(z)\n    return e / e.sum(axis=1, keepdims=True)\n",
     "def log_softmax(z):\n    z = z - z.max(axis=1, keepdims=True)\n"
     "    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))\n"),
    ("        p = softmax(logits)\n        loss = -np.log(p[np.arange(n), y]).mean()\n",
     "        logp = log_softmax(logits)\n        p = np.exp(logp)\n        loss = -logp[np.arange(n), y].mean()\n"),
    ("            db = d.mean(axis=0) + self.weight_decay * self.b[i]\n", "            db = d.sum(axis=0)\n"),
    ("                d = (d @ self.W[i].T) * (A >= 0)\n", "                d = (d @ self.W[i].T) * (A > 0)\n"),
])
fix("/app/mlp/train.py", [
    ("        xs = Xtr[rng.permutation(len(Xtr))]\n        ys = ytr[rng.permutation(len(ytr))]\n",
     "        order = rng.permutation(len(Xtr))\n        xs, ys = Xtr[order], ytr[order]\n"),
])
fix("/app/mlp/data.py", [
    ("        self.std = X.std(axis=0)\n", "        std = X.std(axis=0)\n        self.std = np.where(std == 0, 1.0, std)\n"),
    ("        return (X - X.mean(axis=0)) / self.std\n", "        return (X - self.mean) / self.std\n"),
])
PY
