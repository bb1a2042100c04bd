"""predict_eta.py on deliveries generated here (orders never seen by the agent): interval coverage overall and
per group, pinball loss, non-crossing quantiles."""
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from etagen import generate  # noqa: E402

COVER = (0.77, 0.87)
GROUP_COVER = (0.70, 0.93)
PINBALL_BAR = 2.45  # point model + constant residual band: ~2.68; quantile boosting: ~2.30


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    d = tmp_path_factory.mktemp("eta")
    df = generate(90210, 8000)
    df.drop(columns=["minutes"]).to_csv(d / "in.csv", index=False)
    r = subprocess.run(["python3", "/app/predict_eta.py", str(d / "in.csv"), str(d / "out.csv")],
                       capture_output=True, text=True, timeout=300, cwd="/app")
    assert r.returncode == 0, r.stderr[-2000:]
    got = pd.read_csv(d / "out.csv", dtype={"order_id": str})
    return df, got


def test_rows_columns_and_non_crossing(scored):
    df, got = scored
    assert list(got.columns) == ["order_id", "q10", "q50", "q90"], list(got.columns)
    assert got["order_id"].tolist() == df["order_id"].tolist(), "rows missing or out of order"
    q = got[["q10", "q50", "q90"]].to_numpy(dtype=float)
    assert np.isfinite(q).all()
    assert (q[:, 0] <= q[:, 1]).all() and (q[:, 1] <= q[:, 2]).all(), "quantiles cross"


def covered(df, got):
    y = df["minutes"].to_numpy()
    return (y >= got["q10"].to_numpy()) & (y <= got["q90"].to_numpy())


def test_overall_coverage(scored):
    df, got = scored
    c = covered(df, got).mean()
    assert COVER[0] <= c <= COVER[1], f"[q10, q90] covers {c:.3f} of orders, expected {COVER}"


def test_coverage_per_weather(scored):
    df, got = scored
    cov = covered(df, got)
    per = {w: float(cov[(df["weather"] == w).to_numpy()].mean()) for w in ("clear", "rain", "snow")}
    assert all(GROUP_COVER[0] <= v <= GROUP_COVER[1] for v in per.values()), per


def test_coverage_per_courier(scored):
    df, got = scored
    cov = covered(df, got)
    per = {c: float(cov[(df["courier"] == c).to_numpy()].mean()) for c in ("bike", "scooter", "car")}
    assert all(GROUP_COVER[0] <= v <= GROUP_COVER[1] for v in per.values()), per


def test_pinball_loss(scored):
    df, got = scored
    y = df["minutes"].to_numpy()
    loss = 0.0
    for col, a in (("q10", 0.1), ("q50", 0.5), ("q90", 0.9)):
        d = y - got[col].to_numpy()
        loss += np.mean(np.maximum(a * d, (a - 1) * d)) / 3
    assert loss <= PINBALL_BAR, f"mean pinball loss {loss:.3f} > {PINBALL_BAR}"
