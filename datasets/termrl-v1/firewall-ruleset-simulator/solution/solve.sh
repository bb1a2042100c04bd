#!/bin/bash
set -euo pipefail
cp /solution/fwsim.py /app/fwsim
chmod +x /app/fwsim
