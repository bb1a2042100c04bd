#!/bin/bash
set -euo pipefail
cd /app/repo
git checkout -q main
git merge --no-ff feature/discounts -m "Merge branch 'feature/discounts'" || true
cat > shop/pricing.py <<'PY'
DISCOUNT_CODES = {"SAVE10": 0.10, "HALF": 0.50}


def total(items, tax_rate=0.0, discount=None):
    """Total price of a cart. items: list of (unit_price, quantity).

    tax_rate: sales tax added on top of the subtotal (0.2 means 20 %).
    discount: optional discount code; it reduces the subtotal by its percentage
    before tax is added. Unknown codes raise ValueError.
    """
    if tax_rate < 0:
        raise ValueError("tax_rate must not be negative")
    subtotal = 0.0
    for unit_price, quantity in items:
        if quantity < 0:
            raise ValueError("quantity must not be negative")
        subtotal += unit_price * quantity
    if discount is not None:
        if discount not in DISCOUNT_CODES:
            raise ValueError(f"unknown discount code: {discount}")
        subtotal *= 1 - DISCOUNT_CODES[discount]
    subtotal *= 1 + tax_rate
    return round(subtotal, 2)
PY
cat > tests/test_pricing.py <<'PY'
from shop.pricing import total


def test_total_plain():
    assert total([(2.5, 2), (1.0, 3)]) == 8.0


def test_discount_codes():
    assert total([(10.0, 2)], discount="SAVE10") == 18.0
    assert total([(10.0, 2)], discount="HALF") == 10.0


def test_tax():
    assert total([(10.0, 2)], tax_rate=0.2) == 24.0
PY
printf '# Changelog\n\n## Unreleased\n- Sales tax via tax_rate\n- Discount codes SAVE10 and HALF\n' > CHANGELOG.md
python3 -m pytest -q tests
git add -A
git commit -q --no-edit
git log --graph --oneline -5
