#!/bin/bash
# Fix only the off-by-one in the loop; main.c keeps its implicit declaration of checksum16,
# which bookworm's GCC 12 accepts with a warning (GCC 14 would reject it).
set -euo pipefail
sed -i 's/for (i = 1; i < len; i++)/for (i = 0; i < len; i++)/' /app/src/checksum.c
make -C /app/src clean sum16
