#!/bin/bash
# Mistake: fixes everything except X-Forwarded-For, which still replaces the client's value.
set -euo pipefail
sed 's/headers\["X-Forwarded-For"\] = f"{prior}, {client}" if prior else client/headers["X-Forwarded-For"] = client/' /solution/proxy.py > /app/proxy/proxy.py
grep -q 'headers\["X-Forwarded-For"\] = client$' /app/proxy/proxy.py
