#!/bin/bash
# Mistake: cracks correctly but writes the PIN as a plain integer (drops leading zeros) and includes every operator.
set -euo pipefail
sed -e 's/out.append(f"{login}:{pt.decode()}")/out.append(f"{login}:{pin}")/' -e 's/    if status != "active":/    if False:/' /solution/crack.py > /tmp/crack.py
python3 /tmp/crack.py
