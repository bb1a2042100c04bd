#!/bin/bash
# Mistake: only runs the batch-GCD attack and never tries Fermat factorisation.
set -euo pipefail
python3 /solution/attack.py --gcd-only
