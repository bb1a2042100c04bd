"""Discrete-emission hidden Markov models.

See HMM.md for the definitions every method must follow.
"""
import numpy as np


def _as_obs(obs):
    o = np.asarray(obs, dtype=np.int64).ravel()
    if o.size == 0:
        raise ValueError("empty observation sequence")
    return o


class DiscreteHMM:
    """HMM with K hidden states and M output symbols.

    pi: (K,) initial distribution, A: (K, K) transitions (rows sum to 1),
    B: (K, M) emission probabilities (rows sum to 1).
    """

    def __init__(self, pi, A, B):
        self.pi = np.array(pi, dtype=float)
        self.A = np.array(A, dtype=float)
        self.B = np.array(B, dtype=float)
        K = self.pi.shape[0]
        if self.A.shape != (K, K) or self.B.shape[0] != K:
            raise ValueError("inconsistent shapes")

    @property
    def n_states(self):
        return self.pi.shape[0]

    # ------------------------------------------------------------------ inference

    def forward(self, obs):
        """Scaled forward pass.

        Returns (alpha_hat, c): alpha_hat[t, i] = P(q_t = i | o_0..o_t) and
        c[t] = P(o_t | o_0..o_{t-1}) (c[0] = P(o_0)).
        """
        o = _as_obs(obs)
        T, K = o.size, self.n_states
        alpha = np.zeros((T, K))
        c = np.zeros(T)
        alpha[0] = self.pi * self.B[:, o[0]]
        c[0] = alpha[0].sum()
        for t in range(1, T):
            a = (alpha[t - 1] @ self.A) * self.B[:, o[t]]
            c[t] = a.sum()
            alpha[t] = a / c[t]
        return alpha, c

    def backward(self, obs, c):
        """Scaled backward pass, using the scale factors c of forward():
        beta_hat[t, i] = P(o_{t+1}..o_{T-1} | q_t = i) / prod_{u>t} c[u]."""
        o = _as_obs(obs)
        T, K = o.size, self.n_states
        beta = np.zeros((T, K))
        beta[T - 1] = 1.0
        for t in range(T - 2, -1, -1):
            beta[t] = (self.A @ (self.B[:, o[t + 1]] * beta[t + 1])) / c[t]
        return beta

    def loglik(self, obs):
        """Natural log of P(o_0..o_{T-1})."""
        _, c = self.forward(obs)
        return float(np.log(c).sum())

    def posteriors(self, obs):
        """gamma[t, i] = P(q_t = i | whole sequence)."""
        alpha, c = self.forward(obs)
        beta = self.backward(obs, c)
        g = alpha * beta
        return g / g.sum(axis=1, keepdims=True)

    def _xi_sum(self, o, alpha, beta, c):
        """sum over t = 0..T-2 of xi[t, i, j] = P(q_t = i, q_{t+1} = j | sequence)."""
        K = self.n_states
        acc = np.zeros((K, K))
        for t in range(o.size - 1):
            acc += alpha[t][:, None] * self.A * (self.B[:, o[t + 1]] * beta[t + 1])[None, :] / c[t + 1]
        return acc

    def viterbi(self, obs):
        """Most likely state path and its log joint probability log P(path, obs).
        Ties go to the lowest state index."""
        o = _as_obs(obs)
        T, K = o.size, self.n_states
        psi = np.zeros((T, K), dtype=np.int64)
        # probabilities rescaled at every step (max = 1) so long sequences do not underflow;
        # the log of every rescaling factor is accumulated in logp
        logp = 0.0
        delta = self.pi * self.B[:, o[0]]
        delta = delta / delta.max()
        for t in range(1, T):
            cand = delta[:, None] * self.A
            psi[t] = np.argmax(cand, axis=0)
            delta = cand[psi[t], np.arange(K)] * self.B[:, o[t]]
            m = delta.max()
            logp += np.log(m)
            delta = delta / m
        path = np.zeros(T, dtype=np.int64)
        path[T - 1] = int(np.argmax(delta))
        for t in range(T - 1, 0, -1):
            path[t - 1] = psi[t, path[t]]
        return path.tolist(), float(logp)

    # ------------------------------------------------------------------ learning

    def fit(self, sequences, n_iter=10):
        """Baum-Welch: exactly n_iter EM iterations over all sequences, starting
        from the current parameters. Returns the list of total log-likelihoods,
        one per iteration, computed with the parameters before that iteration's update."""
        seqs = [_as_obs(s) for s in sequences]
        history = []
        K, M = self.B.shape
        for _ in range(n_iter):
            pi_num = np.zeros(K)
            a_num = np.zeros((K, K))
            a_den = np.zeros(K)
            b_num = np.zeros((K, M))
            b_den = np.zeros(K)
            total = 0.0
            for o in seqs:
                alpha, c = self.forward(o)
                beta = self.backward(o, c)
                total += float(np.log(c).sum())
                g = alpha * beta
                g = g / g.sum(axis=1, keepdims=True)
                pi_num = g[0]
                a_num += self._xi_sum(o, alpha, beta, c)
                a_den += g.sum(axis=0)
                for k in range(M):
                    b_num[:, k] += g[o == k].sum(axis=0)
                b_den += g.sum(axis=0)
            history.append(total)
            self.pi = pi_num / len(seqs)
            self.A = a_num / a_den[:, None]
            self.B = b_num / b_den[:, None]
        return history
