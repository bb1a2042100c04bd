#!/bin/bash
# Mistake: handles reordering and retransmissions by sorting segments on their raw sequence number,
# which breaks when a connection's sequence numbers wrap around 2^32.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/carve.py").read()
s = s.replace("st.chunks.append(((seq - st.isn - 1) % M32, payload, idx))",
              "st.chunks.append((seq, payload, idx))")
s = s.replace('''    end = max((o + len(b) for o, b, _ in st.chunks), default=0)''',
              '''    base = min((o for o, b, _ in st.chunks), default=0)
    st.chunks = [(o - base, b, i) for o, b, i in st.chunks]
    end = max((o + len(b) for o, b, _ in st.chunks), default=0)''')
open("/app/carve.py", "w").write(s)
PY
