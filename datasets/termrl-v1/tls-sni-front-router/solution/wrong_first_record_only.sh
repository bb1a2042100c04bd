#!/bin/bash
# Mistake: the ClientHello is only looked for in the first TLS record; when the handshake message continues in
# further records the connection is routed as if it had no SNI and no ALPN.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/frontdoor/router.py"
s = open(p).read()
old = """                if len(hs) >= 4 + mlen:
                    name, alpns = parse_client_hello(bytes(hs[4:4 + mlen]))
                    return choose("tls", name, alpns), buf
"""
new = """                if len(hs) >= 4 + mlen:
                    name, alpns = parse_client_hello(bytes(hs[4:4 + mlen]))
                    return choose("tls", name, alpns), buf
                return choose("tls", "", []), buf
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
