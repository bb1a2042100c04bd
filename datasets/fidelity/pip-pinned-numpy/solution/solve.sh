#!/bin/bash
set -euo pipefail
cat > /app/zscore.py <<'PY'
import sys

import numpy as np


def main(src, dst):
    values = np.loadtxt(src, ndmin=1)
    scores = (values - values.mean()) / values.std()
    with open(dst, "w") as fh:
        for score in scores:
            fh.write(f"{round(float(score), 3):.3f}\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
PY
python /app/zscore.py /app/readings.txt /app/zscores.txt
