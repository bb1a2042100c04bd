import itertools
import sys

import numpy as np
import pytest
from scipy.special import logsumexp

sys.path.insert(0, "/app")
from hmmkit import DiscreteHMM  # noqa: E402


# ---------------------------------------------------------------- reference (log space)

def ref_forward_backward(pi, A, B, o):
    lA, lB = np.log(A), np.log(B)
    T, K = len(o), len(pi)
    la = np.zeros((T, K))
    lb = np.zeros((T, K))
    la[0] = np.log(pi) + lB[:, o[0]]
    for t in range(1, T):
        la[t] = logsumexp(la[t - 1][:, None] + lA, axis=0) + lB[:, o[t]]
    for t in range(T - 2, -1, -1):
        lb[t] = logsumexp(lA + (lB[:, o[t + 1]] + lb[t + 1])[None, :], axis=1)
    ll = float(logsumexp(la[-1]))
    return la, lb, ll


def ref_gamma(pi, A, B, o):
    la, lb, ll = ref_forward_backward(pi, A, B, o)
    return np.exp(la + lb - ll)


def ref_viterbi(pi, A, B, o):
    lA, lB = np.log(A), np.log(B)
    T, K = len(o), len(pi)
    d = np.log(pi) + lB[:, o[0]]
    back = np.zeros((T, K), dtype=int)
    for t in range(1, T):
        cand = d[:, None] + lA
        back[t] = np.argmax(cand, axis=0)
        d = cand[back[t], np.arange(K)] + lB[:, o[t]]
    path = [int(np.argmax(d))]
    for t in range(T - 1, 0, -1):
        path.append(int(back[t, path[-1]]))
    return path[::-1], float(d.max())


def ref_fit(pi, A, B, seqs, n_iter):
    pi, A, B = np.array(pi, float), np.array(A, float), np.array(B, float)
    K, M = B.shape
    hist = []
    for _ in range(n_iter):
        pn, an, ad, bn, bd, tot = np.zeros(K), np.zeros((K, K)), np.zeros(K), np.zeros((K, M)), np.zeros(K), 0.0
        lA, lB = np.log(A), np.log(B)
        for o in seqs:
            la, lb, ll = ref_forward_backward(pi, A, B, o)
            tot += ll
            g = np.exp(la + lb - ll)
            pn += g[0]
            for t in range(len(o) - 1):
                an += np.exp(la[t][:, None] + lA + (lB[:, o[t + 1]] + lb[t + 1])[None, :] - ll)
                ad += g[t]
            for t, k in enumerate(o):
                bn[:, k] += g[t]
            bd += g.sum(axis=0)
        hist.append(tot)
        pi, A, B = pn / len(seqs), an / ad[:, None], bn / bd[:, None]
    return pi, A, B, hist


# ---------------------------------------------------------------- data

def random_model(rng, K, M, sticky=0.0):
    pi = rng.dirichlet(np.ones(K))
    A = rng.dirichlet(np.ones(K), size=K) * (1 - sticky) + sticky * np.eye(K)
    B = rng.dirichlet(np.ones(M) * 0.7, size=K)
    B = (B + 1e-3) / (B + 1e-3).sum(axis=1, keepdims=True)
    return pi, A, B


def sample(rng, pi, A, B, T):
    K, M = B.shape
    q = rng.choice(K, p=pi)
    out = []
    for _ in range(T):
        out.append(int(rng.choice(M, p=B[q])))
        q = rng.choice(K, p=A[q])
    return out


def close(got, want, tol=1e-8):
    got, want = np.asarray(got, float), np.asarray(want, float)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert np.all(np.abs(got - want) <= tol * np.maximum(1.0, np.abs(want))), np.max(np.abs(got - want))


# ---------------------------------------------------------------- tests

def test_loglik_brute_force_tiny():
    rng = np.random.default_rng(7)
    for K, M, T in [(2, 3, 1), (2, 3, 4), (3, 2, 5), (3, 4, 6)]:
        pi, A, B = random_model(rng, K, M)
        o = [int(v) for v in rng.integers(0, M, T)]
        p = 0.0
        for qs in itertools.product(range(K), repeat=T):
            w = pi[qs[0]] * B[qs[0], o[0]]
            for t in range(1, T):
                w *= A[qs[t - 1], qs[t]] * B[qs[t], o[t]]
            p += w
        m = DiscreteHMM(pi, A, B)
        close(m.loglik(o), np.log(p), 1e-10)
        alpha, c = m.forward(o)
        close(np.log(c).sum(), np.log(p), 1e-10)
        close(alpha.sum(axis=1), np.ones(T), 1e-12)


def test_forward_backward_long_sequence():
    rng = np.random.default_rng(11)
    pi, A, B = random_model(rng, 4, 6, sticky=0.5)
    o = sample(rng, pi, A, B, 20000)
    m = DiscreteHMM(pi, A, B)
    la, lb, ll = ref_forward_backward(pi, A, B, o)
    close(m.loglik(o), ll, 1e-10)
    alpha, c = m.forward(o)
    close(alpha, np.exp(la - logsumexp(la, axis=1, keepdims=True)), 1e-9)
    beta = m.backward(o, c)
    lc = np.log(c)
    suffix = np.concatenate([np.cumsum(lc[::-1])[::-1][1:], [0.0]])
    close(np.log(beta), lb - suffix[:, None], 1e-7)


def test_posteriors():
    rng = np.random.default_rng(12)
    pi, A, B = random_model(rng, 5, 4, sticky=0.3)
    o = sample(rng, pi, A, B, 3000)
    close(DiscreteHMM(pi, A, B).posteriors(o), ref_gamma(pi, A, B, o), 1e-9)


def test_viterbi_long_sequence():
    rng = np.random.default_rng(13)
    pi, A, B = random_model(rng, 4, 5, sticky=0.6)
    o = sample(rng, pi, A, B, 15000)
    path, lp = DiscreteHMM(pi, A, B).viterbi(o)
    want_path, want_lp = ref_viterbi(pi, A, B, o)
    assert list(path) == want_path
    close(lp, want_lp, 1e-10)


def test_viterbi_short_and_ties():
    pi = [0.5, 0.5]
    A = [[0.5, 0.5], [0.5, 0.5]]
    B = [[0.5, 0.5], [0.5, 0.5]]
    path, lp = DiscreteHMM(pi, A, B).viterbi([1, 0, 1])
    assert list(path) == [0, 0, 0]
    close(lp, 6 * np.log(0.5), 1e-12)
    rng = np.random.default_rng(14)
    for T in (1, 2, 5):
        pi, A, B = random_model(rng, 3, 3)
        o = [int(v) for v in rng.integers(0, 3, T)]
        path, lp = DiscreteHMM(pi, A, B).viterbi(o)
        wp, wl = ref_viterbi(pi, A, B, o)
        assert list(path) == wp
        close(lp, wl, 1e-12)


def test_fit_one_sequence():
    rng = np.random.default_rng(15)
    true = random_model(rng, 3, 4, sticky=0.5)
    o = sample(rng, *true, 4000)
    start = random_model(rng, 3, 4)
    m = DiscreteHMM(*start)
    hist = m.fit([o], n_iter=1)
    pi, A, B, h = ref_fit(*start, [o], 1)
    close(hist, h, 1e-9)
    close(m.pi, pi)
    close(m.A, A)
    close(m.B, B)


def test_fit_several_sequences_iterations():
    rng = np.random.default_rng(16)
    true = random_model(rng, 3, 5, sticky=0.4)
    seqs = [sample(rng, *true, T) for T in (1, 900, 35, 2, 1500, 1)]
    start = random_model(rng, 3, 5)
    m = DiscreteHMM(*start)
    hist = m.fit(seqs, n_iter=6)
    pi, A, B, h = ref_fit(*start, seqs, 6)
    close(hist, h, 1e-8)
    assert all(b >= a - 1e-9 for a, b in zip(hist, hist[1:]))
    close(m.pi, pi, 1e-7)
    close(m.A, A, 1e-7)
    close(m.B, B, 1e-7)
