#!/bin/bash
# Mistake: window credit for request bodies is returned for the body bytes only, not for the padding of padded
# DATA frames, so a client sending padded frames runs out of window.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/h2/server.py"
s = open(p).read()
old = """            if payload:
                self.frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", len(payload)))
            st = self.streams.get(sid)
            if st is None or st.headers is None:
                return
            data = self.unpad(flags, payload)
            st.body.extend(data)
            if payload and not flags & END_STREAM:
                self.frame(WINDOW_UPDATE, 0, sid, struct.pack(">I", len(payload)))
"""
new = """            data = self.unpad(flags, payload)
            if data:
                self.frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", len(data)))
            st = self.streams.get(sid)
            if st is None or st.headers is None:
                return
            st.body.extend(data)
            if data and not flags & END_STREAM:
                self.frame(WINDOW_UPDATE, 0, sid, struct.pack(">I", len(data)))
"""
assert old in s
s = s.replace(old, new)
open(p, "w").write(s)
PY
