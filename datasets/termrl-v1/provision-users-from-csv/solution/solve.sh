#!/bin/bash
set -euo pipefail
python3 /solution/provision.py
getent passwd amara bjorn chidi dora eitan
