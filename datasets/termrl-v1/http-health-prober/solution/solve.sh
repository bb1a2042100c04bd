#!/bin/bash
set -euo pipefail
cp /solution/probe.py /app/probe.py
