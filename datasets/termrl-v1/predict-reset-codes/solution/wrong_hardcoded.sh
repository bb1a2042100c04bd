#!/bin/bash
# Mistake: cracks the log once, then ships a "predictor" that just replays those answers.
set -euo pipefail
bash /solution/solve.sh >/dev/null
cp /app/predicted.txt /app/known.txt
cat > /app/predict <<'SH'
#!/bin/bash
head -n "$2" /app/known.txt
SH
chmod +x /app/predict
