import json
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

sys.path.insert(0, "/tests")
from loangen import make  # noqa: E402

ENV = dict(os.environ, OMP_NUM_THREADS="1")


@pytest.fixture(scope="module")
def trained():
    for f in ("/app/pipeline/model.pkl", "/app/pipeline/metrics.json"):
        if os.path.exists(f):
            os.remove(f)
    r = subprocess.run(["python3", "/app/pipeline/train.py"], cwd="/app", capture_output=True, timeout=240, env=ENV)
    assert r.returncode == 0, r.stderr.decode()[-3000:]
    return json.load(open("/app/pipeline/metrics.json"))


def score(tmp_path, df, name):
    inp, out = tmp_path / f"{name}.csv", tmp_path / f"{name}_out.csv"
    df.to_csv(inp, index=False)
    r = subprocess.run(["python3", "/app/pipeline/predict.py", str(inp), str(out)], cwd="/app",
                       capture_output=True, timeout=120, env=ENV)
    assert r.returncode == 0, r.stderr.decode()[-3000:]
    return pd.read_csv(out)


@pytest.fixture(scope="module")
def heldout(trained, tmp_path_factory):
    df, y = make(5000, 2718, post_outcome=False)
    got = score(tmp_path_factory.mktemp("h"), df, "heldout")
    return df, y, got


def test_prediction_format(heldout):
    df, _, got = heldout
    assert list(got.columns) == ["loan_id", "probability"]
    assert got["loan_id"].tolist() == df["loan_id"].tolist()
    assert got["probability"].between(0, 1).all()


def test_heldout_auc(heldout):
    _, y, got = heldout
    auc = roc_auc_score(y, got["probability"])
    assert auc >= 0.755, auc


def test_cv_estimate_is_honest(trained, heldout):
    _, y, got = heldout
    auc = roc_auc_score(y, got["probability"])
    cv = float(trained["cv_auc"])
    assert cv <= auc + 0.03, (cv, auc)
    assert cv >= auc - 0.06, (cv, auc)


def test_no_post_outcome_information(trained, tmp_path):
    df, _ = make(800, 31337, post_outcome=False)
    a = score(tmp_path, df, "zero")
    df2 = df.copy()
    df2["collections_flag"] = 1
    b = score(tmp_path, df2, "one")
    assert np.allclose(a["probability"], b["probability"])


def test_unseen_employer(trained, tmp_path):
    df, _ = make(200, 4242, post_outcome=False)
    df.loc[::2, "employer"] = "EMP999"
    got = score(tmp_path, df, "unseen")
    assert got["probability"].notna().all() and len(got) == 200
