#!/bin/bash
set -euo pipefail
cp /solution/dlog.py /app/dlog.py
diff <(python3 /app/dlog.py /app/examples/queries.txt) /app/examples/answers.txt
