import csv
import json
import subprocess

import numpy as np
import pytest



def write(path, header, data):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in data:
            w.writerow([repr(float(v)) for v in r])


def ref_pipeline(X, y, alpha):
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale == 0] = 1.0
    Z = (X - mean) / scale
    zm = Z.mean(axis=0)
    coef = np.linalg.solve((Z - zm).T @ (Z - zm) + alpha * np.eye(X.shape[1]), (Z - zm).T @ (y - y.mean()))
    return mean, scale, coef, float(y.mean() - zm @ coef)


def ref_predict(m, X):
    mean, scale, coef, b = m
    return ((X - mean) / scale) @ coef + b


def ref_train(X, y, alphas, k, seed):
    folds = np.array_split(np.random.default_rng(seed).permutation(len(X)), k)
    scores = []
    for a in alphas:
        err = np.empty(len(X))
        for te in folds:
            tr = np.setdiff1d(np.arange(len(X)), te)
            err[te] = (ref_predict(ref_pipeline(X[tr], y[tr], a), X[te]) - y[te]) ** 2
        scores.append(err.mean())
    best = None
    for a, s in zip(alphas, scores):
        if best is None or s < best[1] or (s == best[1] and a > best[0]):
            best = (a, s)
    return best[0], scores, ref_pipeline(X, y, best[0])


def gen(seed, n, p, const_col=None):
    rng = np.random.default_rng(seed)
    scales = rng.choice([0.01, 1.0, 50.0, 3000.0], size=p)
    X = rng.normal(size=(n, p)) * scales + rng.normal(size=p) * scales * 3
    beta = rng.normal(size=p) / scales
    y = X @ beta * 4 + rng.normal(0, 2.0, n) + 100
    if const_col is not None:
        X[:, const_col] = 7.25
    return X, y


def train(tmp, X, y, names, alphas, k, seed):
    header = names[:2] + ["target"] + names[2:]
    data = np.column_stack([X[:, :2], y, X[:, 2:]])
    write(tmp / "train.csv", header, data)
    r = subprocess.run(["python3", "-m", "ridgecv", "train", str(tmp / "train.csv"), "--target", "target",
                        "--alphas", alphas, "--folds", str(k), "--seed", str(seed), "--out", str(tmp / "m.json")],
                       capture_output=True, text=True, timeout=120, cwd="/app/ridgecv")
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads((tmp / "m.json").read_text())


def predict(tmp, X, names, y=None):
    order = list(reversed(range(len(names))))
    header = [names[i] for i in order] + (["target"] if y is not None else [])
    data = X[:, order] if y is None else np.column_stack([X[:, order], y])
    write(tmp / "in.csv", header, data)
    r = subprocess.run(["python3", "-m", "ridgecv", "predict", str(tmp / "m.json"), str(tmp / "in.csv"),
                        str(tmp / "out.csv")], capture_output=True, text=True, timeout=120, cwd="/app/ridgecv")
    assert r.returncode == 0, r.stderr[-2000:]
    lines = (tmp / "out.csv").read_text().split()
    assert lines[0] == "prediction" and len(lines) == len(X) + 1
    return np.array([float(v) for v in lines[1:]])


def close(got, want):
    np.testing.assert_allclose(np.asarray(got, float), np.asarray(want, float), rtol=1e-6, atol=1e-9)


def check_model(m, X, y, names, alphas, k, seed):
    al = [float(a) for a in alphas.split(",")]
    a, scores, (mean, scale, coef, b) = ref_train(X, y, al, k, seed)
    assert set(m["cv_mse"]) == set(alphas.split(","))
    close([m["cv_mse"][s] for s in alphas.split(",")], scores)
    assert float(m["alpha"]) == a
    assert m["features"] == names
    close(m["mean"], mean)
    close(m["scale"], scale)
    close(m["coef"], coef)
    close(m["intercept"], b)
    return mean, scale, coef, b


NAMES5 = ["f_a", "f_b", "f_c", "f_d", "f_e"]


@pytest.fixture(scope="module")
def main_case(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("main")
    X, y = gen(8080, 157, 5)
    m = train(tmp, X, y, NAMES5, "0.01,0.3,3,30,300", 5, 3)
    return tmp, X, y, m


def test_cv_scores_match_reference(main_case):
    tmp, X, y, m = main_case
    al = [0.01, 0.3, 3.0, 30.0, 300.0]
    _, scores, _ = ref_train(X, y, al, 5, 3)
    close([m["cv_mse"][s] for s in "0.01,0.3,3,30,300".split(",")], scores)


def test_final_model_matches_reference(main_case):
    tmp, X, y, m = main_case
    check_model(m, X, y, NAMES5, "0.01,0.3,3,30,300", 5, 3)


def test_predictions_on_unseen_rows(main_case):
    tmp, X, y, m = main_case
    Xn, yn = gen(9191, 40, 5)
    got = predict(tmp, Xn, NAMES5, yn)
    close(got, ref_predict(check_model(m, X, y, NAMES5, "0.01,0.3,3,30,300", 5, 3), Xn))


def test_constant_feature_and_remainder_rows(tmp_path):
    names = ["u", "v", "w", "const"]
    X, y = gen(1212, 23, 4, const_col=3)
    m = train(tmp_path, X, y, names, "0.5,5,50", 4, 11)
    model = check_model(m, X, y, names, "0.5,5,50", 4, 11)
    Xn, _ = gen(1313, 9, 4, const_col=3)
    Xn[:, 3] = [7.25, 8, 6, 7.25, 0, 7.25, 100, 7.25, 7.25]
    got = predict(tmp_path, Xn, names)
    assert np.all(np.isfinite(got))
    close(got, ref_predict(model, Xn))


def test_other_grid_and_many_folds(tmp_path):
    names = ["x1", "x2", "x3"]
    X, y = gen(4545, 61, 3)
    m = train(tmp_path, X, y, names, "1e-3,0.1,10,1e3,1e5", 7, 2026)
    check_model(m, X, y, names, "1e-3,0.1,10,1e3,1e5", 7, 2026)


def test_constant_target_tie_picks_largest_alpha(tmp_path):
    names = ["p", "q", "r"]
    X, _ = gen(77, 30, 3)
    y = np.full(30, 5.0)
    m = train(tmp_path, X, y, names, "10,0.1,1", 3, 5)
    assert float(m["alpha"]) == 10.0
    close([m["cv_mse"][s] for s in ("10", "0.1", "1")], [0.0, 0.0, 0.0])
    close(m["intercept"], 5.0)


def test_huge_penalty_predicts_training_mean(tmp_path):
    names = ["p", "q", "r"]
    X, y = gen(31, 40, 3)
    m = train(tmp_path, X, y, names, "1e12", 4, 0)
    close(m["intercept"], y.mean())
    got = predict(tmp_path, gen(32, 10, 3)[0], names)
    np.testing.assert_allclose(got, y.mean(), rtol=1e-6)


def test_readme_unchanged():
    import hashlib
    with open("/app/ridgecv/README.md", "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == "ef203682858d0411cda689a963bdef75ee2f63a618e9351f27ff095631efe6c5", "README.md is the contract and must not change"
