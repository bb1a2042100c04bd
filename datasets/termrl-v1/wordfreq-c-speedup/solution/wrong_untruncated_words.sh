#!/bin/bash
# Plausible but wrong: the rewrite keeps words whole (a big buffer instead of the 63-byte cut), so runs
# longer than 63 bytes are no longer cut and merged the way the original does.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/^#define MAXW 64$/#define MAXW 4096/' /app/wf/wordfreq.c
grep -q '^#define MAXW 4096$' /app/wf/wordfreq.c
make -C /app/wf clean
make -C /app/wf
