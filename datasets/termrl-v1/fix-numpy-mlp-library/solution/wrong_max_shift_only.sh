#!/bin/bash
# Plausible but wrong: the usual max-shift makes the softmax overflow-free, but the loss still takes the log
# of a probability that underflows to 0 for very large logits (inf loss).
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
     "def softmax(z):\n    e = np.exp(z - z.max(axis=1, keepdims=True))\n    return e / e.sum(axis=1, keepdims=True)\n"),
    ("        p = softmax(logits)\n        loss = -np.log(p[np.arange(n), y]).mean()\n",
     "        p = softmax(logits)\n        loss = -np.log(p[np.arange(n), y]).mean()\n"),
    ("            db = d.mean(axis=0) + self.weight_decay * self.b[i]\n", "            db = d.sum(axis=0)\n"),
    ("                d = (d @ self.W[i].T) * (A >= 0)\n", "                d = (d @ self.W[i].T) * (A > 0)\n"),
])
fix("/app/mlp/optim.py", [
    ("m / (1 - self.beta1 ** (self.t + 1))", "m / (1 - self.beta1 ** self.t)"),
    ("v / (1 - self.beta2 ** (self.t + 1))", "v / (1 - self.beta2 ** self.t)"),
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
