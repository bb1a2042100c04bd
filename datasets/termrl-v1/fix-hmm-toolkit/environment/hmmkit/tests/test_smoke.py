import numpy as np

from hmmkit import DiscreteHMM


def model():
    return DiscreteHMM([0.6, 0.4], [[0.7, 0.3], [0.4, 0.6]], [[0.5, 0.4, 0.1], [0.1, 0.3, 0.6]])


def test_shapes():
    m = model()
    obs = [0, 1, 2, 2, 1, 0]
    alpha, c = m.forward(obs)
    assert alpha.shape == (6, 2) and c.shape == (6,)
    assert m.posteriors(obs).shape == (6, 2)
    path, lp = m.viterbi(obs)
    assert len(path) == 6 and lp < 0


def test_posteriors_normalised():
    g = model().posteriors([0, 2, 2, 1, 0, 0, 2])
    assert np.allclose(g.sum(axis=1), 1.0)


def test_fit_runs():
    m = model()
    h = m.fit([[0, 1, 2, 2, 1, 0, 0, 1], [2, 2, 1]], n_iter=3)
    assert len(h) == 3
    assert np.allclose(m.B.sum(axis=1), 1.0)
