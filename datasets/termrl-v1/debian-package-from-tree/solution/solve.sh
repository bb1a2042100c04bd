#!/bin/bash
set -euo pipefail
install -m 755 /solution/build-deb.sh /app/build-deb.sh
