#!/bin/bash
# Fixes the metadata but keeps an (empty) acme/__init__.py in acme-csv: works when everything lands in
# one site-packages, yet the distribution claims the shared namespace as a regular package.
set -euo pipefail
bash /solution/solve.sh
: > /app/acme/acme-csv/src/acme/__init__.py
