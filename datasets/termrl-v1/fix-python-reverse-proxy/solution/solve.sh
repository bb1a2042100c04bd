#!/bin/bash
set -euo pipefail
cp /solution/proxy.py /app/proxy/proxy.py
