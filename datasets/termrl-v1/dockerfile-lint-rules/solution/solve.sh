#!/bin/bash
set -euo pipefail
install -m 755 /solution/dflint.py /app/dflint
