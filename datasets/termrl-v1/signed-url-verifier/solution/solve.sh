#!/bin/bash
set -euo pipefail
cp /solution/verify_url.py /app/verify_url.py
