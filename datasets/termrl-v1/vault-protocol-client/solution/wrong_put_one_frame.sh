#!/bin/bash
# Mistake: uploads the whole file as one final data frame, ignoring the server's frame size limit.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/vault_client.py").read()
s = s.replace("        assert len(payload) <= 4096\n", "")
s = s.replace('struct.pack("<BBH", typ, self.seq, len(payload))', 'struct.pack("<BBH", typ, self.seq, len(payload) & 0xFFFF)')
s = s.replace("chunks = [data[i:i + 4096] for i in range(0, len(data), 4096)] or [b\"\"]", "chunks = [data]")
open("/app/vault_client.py", "w").write(s)
PY
