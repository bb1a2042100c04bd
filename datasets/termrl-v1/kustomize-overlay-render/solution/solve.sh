#!/bin/bash
set -euo pipefail
install -m 755 /solution/kbuild.py /app/kbuild
