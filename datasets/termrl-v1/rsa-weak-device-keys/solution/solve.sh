#!/bin/bash
set -euo pipefail
python3 /solution/attack.py
cat /app/weak_keys.txt; cat /app/recovered/*
