#!/bin/bash
# Mistake: decodes correctly but takes the first transfer seen in the log (the aborted one) and
# salvages what a truncated archive yields.
set -euo pipefail
sed -e 's/^    best = (sid, len(parts), tar_bytes)$/    pass/' \
    -e 's/^        continue                                # an aborted transfer: truncated stream$/        best = best or (sid, len(parts), gzip.GzipFile(fileobj=io.BytesIO(data)).read1(1 << 30))/' \
    -e 's/^with tarfile.open(fileobj=io.BytesIO(tar_bytes)) as tar:$/with tarfile.open(fileobj=io.BytesIO(tar_bytes + bytes(10240)), ignore_zeros=True) as tar:/' \
    -e 's/^print(sid, n, .*$/print(sid, n)/' /solution/solve.sh > /tmp/wrong.sh
grep -q 'read1' /tmp/wrong.sh
bash /tmp/wrong.sh
