#!/bin/bash
# Mistake: appends each segment's payload in the order the capture holds them, skipping only
# segments whose sequence number was already seen (no real reassembly).
set -euo pipefail
python3 - <<'PY'
s = open("/solution/carve.py").read()
s = s.replace('''    end = max((o + len(b) for o, b, _ in st.chunks), default=0)''',
              '''    seen_seq, pos, fixed = set(), 0, []
    for o, b, i in st.chunks:
        if o in seen_seq:
            continue
        seen_seq.add(o)
        fixed.append((pos, b, i))
        pos += len(b)
    st.chunks = fixed
    end = max((o + len(b) for o, b, _ in st.chunks), default=0)''')
open("/app/carve.py", "w").write(s)
PY
