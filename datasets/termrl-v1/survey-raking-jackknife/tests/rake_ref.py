import csv
import json

import numpy as np


def load():
    rows = list(csv.DictReader(open("/app/survey.csv")))
    cfg = json.load(open("/app/margins.json"))
    return rows, cfg


def rake(w, cats, cfg):
    N = cfg["population"]
    w = w * (N / w.sum())
    for _ in range(1000):
        for var in cfg["order"]:
            for c, p in cfg["margins"][var].items():
                m = cats[var] == c
                w[m] *= p * N / w[m].sum()
        dev = max(abs(w[cats[v] == c].sum() / N - p) for v in cfg["order"] for c, p in cfg["margins"][v].items())
        if dev < 1e-10:
            break
    return w


def calibrate(base, cats, cfg):
    N = cfg["population"]
    cap = cfg["trim_factor"] * N / len(base)
    w = rake(base.copy(), cats, cfg)
    for _ in range(50):
        if w.max() <= cap * (1 + 1e-9):
            break
        w = rake(np.minimum(w, cap), cats, cfg)
    return w


def estimates(w, rows, cats):
    smoker = np.array([r["smoker"] == "yes" for r in rows])
    inc_ok = np.array([r["income"] != "" for r in rows])
    inc = np.array([float(r["income"]) if r["income"] else 0.0 for r in rows])
    est = {"smoking_rate": float((w * smoker).sum() / w.sum()),
           "mean_income": float((w * inc)[inc_ok].sum() / w[inc_ok].sum())}
    for reg in sorted(set(cats["region"])):
        m = cats["region"] == reg
        est[f"smoking_rate_{reg}"] = float((w * smoker)[m].sum() / w[m].sum())
    return est


def full():
    rows, cfg = load()
    cats = {v: np.array([r[v] for r in rows]) for v in cfg["order"] + ["region"]}
    base = np.array([float(r["base_weight"]) for r in rows])
    psu = np.array([int(r["psu"]) for r in rows])
    w = calibrate(base, cats, cfg)
    est = estimates(w, rows, cats)
    G = sorted(set(psu))
    reps = []
    for g in G:
        keep = psu != g
        sub = [r for r, k in zip(rows, keep) if k]
        subcats = {v: a[keep] for v, a in cats.items()}
        bw = base[keep] * len(G) / (len(G) - 1)
        reps.append(estimates(calibrate(bw, subcats, cfg), sub, subcats))
    se = {k: float(np.sqrt((len(G) - 1) / len(G) * sum((r[k] - est[k]) ** 2 for r in reps))) for k in est}
    deff = len(w) * (w ** 2).sum() / w.sum() ** 2
    return rows, w, est, se, float(deff)
