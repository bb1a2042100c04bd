import numpy as np


def softmax(z):
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class MLP:
    def __init__(self, sizes, seed=0, weight_decay=0.0):
        rng = np.random.default_rng(seed)
        self.W = [rng.normal(0.0, np.sqrt(2.0 / a), size=(a, b)) for a, b in zip(sizes[:-1], sizes[1:])]
        self.b = [np.zeros(b) for b in sizes[1:]]
        self.weight_decay = weight_decay

    def params(self):
        out = []
        for W, b in zip(self.W, self.b):
            out += [W, b]
        return out

    def _forward(self, X):
        A, cache = X, []
        for i, (W, b) in enumerate(zip(self.W, self.b)):
            Z = A @ W + b
            cache.append((A, Z))
            A = Z if i == len(self.W) - 1 else np.maximum(Z, 0.0)
        return A, cache

    def forward(self, X):
        return self._forward(np.asarray(X, dtype=float))[0]

    def predict(self, X):
        return self.forward(X).argmax(axis=1)

    def loss_and_grads(self, X, y):
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=int)
        n = X.shape[0]
        logits, cache = self._forward(X)
        p = softmax(logits)
        loss = -np.log(p[np.arange(n), y]).mean()
        loss += 0.5 * self.weight_decay * sum((W ** 2).sum() for W in self.W)
        d = p.copy()
        d[np.arange(n), y] -= 1.0
        d /= n
        grads = [None] * len(self.W)
        for i in range(len(self.W) - 1, -1, -1):
            A, Z = cache[i]
            dW = A.T @ d + self.weight_decay * self.W[i]
            db = d.mean(axis=0) + self.weight_decay * self.b[i]
            grads[i] = (dW, db)
            if i:
                d = (d @ self.W[i].T) * (A >= 0)
        return loss, grads
