#!/bin/bash
set -euo pipefail
install -m 755 /solution/semrange.py /app/semrange
