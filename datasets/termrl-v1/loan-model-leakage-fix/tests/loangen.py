import numpy as np
import pandas as pd

_EMP = np.random.default_rng(12345)
EMPLOYERS = [f"EMP{i:03d}" for i in range(600)]
EMP_EFFECT = dict(zip(EMPLOYERS, _EMP.normal(0, 1.2, 600)))
EMP_WEIGHT = _EMP.dirichlet(np.full(600, 0.35))


def make(n, seed, post_outcome=True):
    rng = np.random.default_rng(seed)
    income = np.round(rng.lognormal(10.8, 0.5, n), -2)
    debt_ratio = np.round(rng.beta(2, 5, n), 3)
    age = rng.integers(21, 70, n)
    loan = np.round(rng.uniform(1000, 40000, n), -2)
    employer = rng.choice(EMPLOYERS, n, p=EMP_WEIGHT)
    region = rng.choice(["N", "S", "E", "W"], n)
    eff = np.array([EMP_EFFECT[e] for e in employer])
    z = (-2.0 + 3.5 * debt_ratio - 0.9 * (np.log(income) - 10.8) + 0.00003 * loan - 0.015 * (age - 40)
         + eff + 0.3 * (region == "S"))
    y = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
    coll = np.where(y == 1, rng.random(n) < 0.85, rng.random(n) < 0.02).astype(int) if post_outcome else np.zeros(n, int)
    return pd.DataFrame({"loan_id": np.arange(n) + seed * 1_000_000, "income": income, "debt_ratio": debt_ratio,
                         "age": age, "loan_amount": loan, "employer": employer, "region": region,
                         "collections_flag": coll}), y
