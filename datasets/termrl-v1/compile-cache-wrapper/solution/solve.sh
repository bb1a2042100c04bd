#!/bin/bash
set -euo pipefail
install -m 755 /solution/cccache.py /app/cccache
