#!/bin/bash
# Mistake: uses parse_qsl (decodes values) and keeps the parameters in URL order when building the string to sign.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/verify_url.py").read()
s = s.replace('q = "&".join(f"{k}={v}" for k, v in sorted(((k, v) for k, v in params.items() if k != "sig"), key=lambda kv: kv[0].encode()))',
              'q = "&".join(f"{k}={urllib.parse.unquote(v)}" for k, v in params.items() if k != "sig")')
open("/app/verify_url.py", "w").write(s)
PY
