#!/bin/bash
# Plausible but wrong: a gradient-boosted regressor on the raw columns. It learns "cheap and close is good"
# in absolute terms, which does not transfer across cities with different price levels and distances.
set -euo pipefail
cat > /app/rank.py <<'PY'
import sys
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor
cols = ["price", "distance_km", "stars", "rating", "reviews"]
tr = pd.read_csv("/app/data/train.csv", dtype={"qid": str, "hotel_id": str})
m = HistGradientBoostingRegressor(random_state=0, max_iter=300, learning_rate=0.05).fit(tr[cols], tr["relevance"])
df = pd.read_csv(sys.argv[1], dtype={"qid": str, "hotel_id": str})
pd.DataFrame({"qid": df["qid"], "hotel_id": df["hotel_id"], "score": m.predict(df[cols])}).to_csv(
    sys.argv[2], index=False, float_format="%.6f")
PY
