#!/bin/bash
# Mistake: treats "disabled" like "active" (no lock, normal shell).
set -euo pipefail
sed -e 's/if r\["status"\] == "disabled":/if False:/g' /solution/provision.py > /tmp/p.py
python3 /tmp/p.py
