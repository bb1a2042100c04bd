#!/bin/bash
set -euo pipefail
export GIT_AUTHOR_NAME="Sofia Rossi" GIT_AUTHOR_EMAIL="sofia@example.it"
export GIT_COMMITTER_NAME="Sofia Rossi" GIT_COMMITTER_EMAIL="sofia@example.it"
at() { export GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"; }
git init -q -b main /app/repo
cd /app/repo
git config gc.auto 0
mkdir -p shop tests
touch shop/__init__.py
printf '__pycache__/\n.pytest_cache/\n' > .gitignore
cat > shop/pricing.py <<'PY'
def total(items):
    """Total price of a cart. items: list of (unit_price, quantity)."""
    subtotal = 0.0
    for unit_price, quantity in items:
        subtotal += unit_price * quantity
    return round(subtotal, 2)
PY
cat > tests/test_pricing.py <<'PY'
from shop.pricing import total


def test_total_plain():
    assert total([(2.5, 2), (1.0, 3)]) == 8.0
PY
printf '# Changelog\n\n## Unreleased\n' > CHANGELOG.md
git add -A && at "2025-06-02T09:00:00" && git commit -q -m "Cart totals"

git checkout -q -b feature/discounts
cat > shop/pricing.py <<'PY'
DISCOUNT_CODES = {"SAVE10": 0.10, "HALF": 0.50}


def total(items, discount=None):
    """Total price of a cart. items: list of (unit_price, quantity).

    discount: optional discount code; it reduces the subtotal by its percentage.
    Unknown codes raise ValueError.
    """
    subtotal = 0.0
    for unit_price, quantity in items:
        subtotal += unit_price * quantity
    if discount is not None:
        if discount not in DISCOUNT_CODES:
            raise ValueError(f"unknown discount code: {discount}")
        subtotal *= 1 - DISCOUNT_CODES[discount]
    return round(subtotal, 2)
PY
cat >> tests/test_pricing.py <<'PY'


def test_discount_codes():
    assert total([(10.0, 2)], discount="SAVE10") == 18.0
    assert total([(10.0, 2)], discount="HALF") == 10.0
PY
printf -- '- Discount codes SAVE10 and HALF\n' >> CHANGELOG.md
git add -A && at "2025-06-04T10:00:00" && git commit -q -m "Support discount codes"

git checkout -q main
cat > shop/pricing.py <<'PY'
def total(items, tax_rate=0.0):
    """Total price of a cart. items: list of (unit_price, quantity).

    tax_rate: sales tax added on top of the subtotal (0.2 means 20 %).
    """
    if tax_rate < 0:
        raise ValueError("tax_rate must not be negative")
    subtotal = 0.0
    for unit_price, quantity in items:
        if quantity < 0:
            raise ValueError("quantity must not be negative")
        subtotal += unit_price * quantity
    subtotal *= 1 + tax_rate
    return round(subtotal, 2)
PY
cat >> tests/test_pricing.py <<'PY'


def test_tax():
    assert total([(10.0, 2)], tax_rate=0.2) == 24.0
PY
printf -- '- Sales tax via tax_rate\n' >> CHANGELOG.md
git add -A && at "2025-06-05T11:00:00" && git commit -q -m "Add sales tax"
