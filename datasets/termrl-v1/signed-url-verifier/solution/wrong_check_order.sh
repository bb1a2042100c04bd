#!/bin/bash
# Mistake: checks the signature before expiry, and accepts padded signatures.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/verify_url.py").read()
s = s.replace('    if int(params["expires"]) <= now:\n        return "expired"\n', '')
s = s.replace('    return None if hmac.compare_digest(want, raw) else "bad-signature"',
              '    if not hmac.compare_digest(want, raw):\n        return "bad-signature"\n    return "expired" if int(params["expires"]) <= now else None')
s = s.replace('r"[A-Za-z0-9_-]*"', 'r"[A-Za-z0-9_=-]*"')
s = s.replace('raw = base64.urlsafe_b64decode(sig + "=" * (-len(sig) % 4))', 'raw = base64.urlsafe_b64decode(sig.rstrip("=") + "=" * (-len(sig.rstrip("=")) % 4))')
open("/app/verify_url.py", "w").write(s)
PY
