#!/bin/bash
# Mistake: retries a failed start immediately and treats "unexpected" like "true".
set -euo pipefail
sed 's/p.retry_at = time.monotonic() + 0.5/p.retry_at = time.monotonic()/; s/again = p.autorestart == "true" or (p.autorestart == "unexpected" and not expected)/again = p.autorestart in ("true", "unexpected")/' /solution/supervise.py > /app/supervise.py
