#!/bin/bash
# Relevance depends on a hotel's price and distance relative to the other results of its query (cities differ
# in price level and spread), so the features are normalised per query before a gradient-boosted regressor.
set -euo pipefail
cat > /app/rank_features.py <<'PY'
import numpy as np
import pandas as pd


def features(df):
    g = df.groupby("qid", sort=False)
    X = df[["stars", "rating", "reviews"]].astype(float).copy()
    logp = np.log(df["price"].astype(float))
    X["log_price_rel"] = logp - logp.groupby(df["qid"]).transform("median")
    X["dist_rel"] = df["distance_km"] / g["distance_km"].transform("median").replace(0, 1e-6)
    X["rating_rel"] = df["rating"] - g["rating"].transform("mean")
    X["price_rank"] = g["price"].rank(pct=True)
    return X
PY
cat > /app/train_ranker.py <<'PY'
import pickle
import sys
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor
sys.path.insert(0, "/app")
from rank_features import features
df = pd.read_csv("/app/data/train.csv", dtype={"qid": str, "hotel_id": str})
m = HistGradientBoostingRegressor(random_state=0, max_iter=300, learning_rate=0.05).fit(features(df), df["relevance"])
pickle.dump(m, open("/app/ranker.pkl", "wb"))
PY
cat > /app/rank.py <<'PY'
import pickle
import sys
import pandas as pd
sys.path.insert(0, "/app")
from rank_features import features
df = pd.read_csv(sys.argv[1], dtype={"qid": str, "hotel_id": str})
m = pickle.load(open("/app/ranker.pkl", "rb"))
out = pd.DataFrame({"qid": df["qid"], "hotel_id": df["hotel_id"], "score": m.predict(features(df))})
out.to_csv(sys.argv[2], index=False, float_format="%.6f")
PY
python3 /app/train_ranker.py
