#!/bin/bash
# Mistake: combines both features but adds tax before applying the discount and drops the quantity check.
set -euo pipefail
cd /app/repo
git checkout -q main
git merge --no-ff feature/discounts -m "Merge branch 'feature/discounts'" || true
cat > shop/pricing.py <<'PY'
DISCOUNT_CODES = {"SAVE10": 0.10, "HALF": 0.50}


def total(items, tax_rate=0.0, discount=None):
    if tax_rate < 0:
        raise ValueError("tax_rate must not be negative")
    subtotal = 0.0
    for unit_price, quantity in items:
        subtotal += unit_price * quantity
    subtotal = round(subtotal * (1 + tax_rate), 2)
    if discount is not None:
        if discount not in DISCOUNT_CODES:
            raise ValueError(f"unknown discount code: {discount}")
        subtotal = round(subtotal * (1 - DISCOUNT_CODES[discount]), 2)
    return subtotal
PY
git checkout --theirs tests/test_pricing.py CHANGELOG.md
git add -A
git commit -q --no-edit
