#!/bin/bash
set -euo pipefail
install -m 755 /solution/ocirootfs.py /app/ocirootfs
