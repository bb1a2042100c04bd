import numpy as np
import pandas as pd


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


if __name__ == "__main__":
    df, y = make(5000, 1)
    df["churned"] = y
    df.to_csv("/app/train.csv", index=False)
