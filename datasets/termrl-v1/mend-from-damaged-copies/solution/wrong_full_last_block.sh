#!/bin/bash
# Mistake: treats the last block as a full block, so its checksum never matches when the length is not a
# multiple of the block size; then keeps the best guess for it (copy-a's bytes) instead of failing.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/mend.py").read()
s = s.replace("size = min(bs, length - i * bs)", "size = bs")
s = s.replace('''        if found is None:
            print(f"block {i} is damaged in every copy", file=sys.stderr)
            return 1''', '''        if found is None:
            found = data[0][i * bs:(i + 1) * bs]''')
s = s.replace('''    if hashlib.sha256(result).digest() != digest:
        print("whole-file checksum mismatch", file=sys.stderr)
        return 1''', "    result = result[:length]")
open("/app/mend.py", "w").write(s)
PY
python3 /app/mend.py /data/image.bsum /data/image.img /data/copies/copy-a.img /data/copies/copy-b.img /data/copies/copy-c.img
