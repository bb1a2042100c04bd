#!/bin/bash
set -euo pipefail
cp /solution/coprob.py /app/coprob.py
diff <(python3 /app/coprob.py /app/examples/small.txt) /app/examples/small.answers
