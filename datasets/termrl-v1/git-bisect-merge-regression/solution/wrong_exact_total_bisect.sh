#!/bin/bash
# Mistake: bisects on "the total is exactly 12.80", so commits without coupon support count as bad and
# the Decimal conversion on the side branch is blamed.
BISECT_MODE=exact_total exec bash "$(dirname "$0")/solve.sh"
