#!/bin/bash
set -euo pipefail
cp /solution/supervise.py /app/supervise.py
