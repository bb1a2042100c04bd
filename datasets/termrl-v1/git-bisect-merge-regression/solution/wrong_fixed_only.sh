#!/bin/bash
# Mistake: converts the fixed amounts to euros but leaves the percentage coupons on integer division.
BISECT_MODE=fixed_only exec bash "$(dirname "$0")/solve.sh"
