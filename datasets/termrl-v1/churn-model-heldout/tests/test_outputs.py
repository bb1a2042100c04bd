import csv
import subprocess

import numpy as np
import pandas as pd
import pytest

def make(n, seed):
    rng = np.random.default_rng(seed)
    tenure = rng.integers(1, 73, n)
    contract = rng.choice(["month", "annual", "biennial"], n, p=[0.5, 0.3, 0.2])
    payment = rng.choice(["card", "bank", "check"], n, p=[0.4, 0.35, 0.25])
    calls = rng.poisson(1.5, n)
    charge = np.round(rng.uniform(20, 120, n), 2)
    age = rng.integers(18, 80, n).astype(float)
    region = rng.choice(["north", "south", "east", "west"], n)
    z = (-0.5 + 2.2 * (contract == "month") - 0.9 * (contract == "biennial") - 0.06 * tenure
         + 0.9 * calls * (payment == "check") + 0.15 * calls
         + 0.04 * np.maximum(charge - 80, 0) - 0.03 * np.abs(age - 45) + 0.5)
    p = 1 / (1 + np.exp(-z))
    y = (rng.random(n) < p).astype(int)
    age[rng.random(n) < 0.12] = np.nan
    contract = contract.astype(object)
    payment = payment.astype(object)
    for arr in (contract, payment):
        mess = rng.random(n)
        for i in np.where(mess < 0.04)[0]:
            arr[i] = arr[i].upper()
        for i in np.where((mess >= 0.04) & (mess < 0.08))[0]:
            arr[i] = " " + arr[i].capitalize() + " "
    df = pd.DataFrame({"id": np.arange(1, n + 1) + seed * 100000, "tenure_months": tenure, "contract": contract,
                       "payment_method": payment, "support_calls": calls, "monthly_charge": charge,
                       "age": age, "region": region})
    return df, y


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    d = tmp_path_factory.mktemp("churn")
    df, y = make(4000, 424242)
    df.to_csv(d / "in.csv", index=False)
    r = subprocess.run(["python3", "/app/predict.py", str(d / "in.csv"), str(d / "out.csv")],
                       capture_output=True, timeout=120)
    return df, y, r, d / "out.csv"


def test_runs(scored):
    _, _, r, out = scored
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    assert out.is_file()


def test_header_and_rows(scored):
    df, _, _, out = scored
    rows = list(csv.reader(open(out)))
    assert rows[0] == ["id", "churned"]
    assert len(rows) == len(df) + 1


def test_order_and_labels(scored):
    df, _, _, out = scored
    got = pd.read_csv(out)
    assert got["id"].tolist() == df["id"].tolist()
    assert set(got["churned"].unique()) <= {0, 1}


def test_accuracy(scored):
    df, y, _, out = scored
    got = pd.read_csv(out)
    acc = float((got["churned"].to_numpy() == y).mean())
    assert acc >= 0.77, acc


def test_messy_categories_handled(scored):
    df, y, _, out = scored
    got = pd.read_csv(out)
    messy = (df["contract"] != df["contract"].str.strip().str.lower()).to_numpy()
    acc = float((got["churned"].to_numpy()[messy] == y[messy]).mean())
    assert acc >= 0.72, acc
