import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from mlp.data import Standardizer, load_csv  # noqa: E402
from mlp.net import MLP  # noqa: E402
from mlp.optim import Adam  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", required=True)
    ap.add_argument("--test", required=True)
    ap.add_argument("--hidden", default="32,32")
    ap.add_argument("--epochs", type=int, default=150)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    Xtr, ytr = load_csv(args.train)
    Xte, yte = load_csv(args.test)
    scaler = Standardizer().fit(Xtr)
    Xtr, Xte = scaler.transform(Xtr), scaler.transform(Xte)
    n_classes = int(max(ytr.max(), yte.max())) + 1
    sizes = [Xtr.shape[1]] + [int(h) for h in args.hidden.split(",") if h] + [n_classes]
    net = MLP(sizes, seed=args.seed, weight_decay=args.weight_decay)
    opt = Adam(net.params(), lr=args.lr)
    rng = np.random.default_rng(args.seed)
    for _ in range(args.epochs):
        xs = Xtr[rng.permutation(len(Xtr))]
        ys = ytr[rng.permutation(len(ytr))]
        for start in range(0, len(xs), args.batch):
            _, grads = net.loss_and_grads(xs[start:start + args.batch], ys[start:start + args.batch])
            flat = []
            for dW, db in grads:
                flat += [dW, db]
            opt.step(flat)
    pred = net.predict(Xte)
    with open(args.out, "w") as f:
        f.write("".join(f"{int(c)}\n" for c in pred))
    print(f"test accuracy: {(pred == yte).mean():.4f}")


if __name__ == "__main__":
    main()
