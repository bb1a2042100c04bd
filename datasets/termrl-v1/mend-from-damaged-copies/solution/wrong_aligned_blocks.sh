#!/bin/bash
# Mistake: looks for each block only at its own offset in every copy, so copies with inserted or removed
# bytes are useless after the first shift.
set -euo pipefail
sed 's/for near in (0, 1500, None):/for near in (0,):/' /solution/mend.py > /app/mend.py
python3 /app/mend.py /data/image.bsum /data/image.img /data/copies/copy-a.img /data/copies/copy-b.img /data/copies/copy-c.img || true
