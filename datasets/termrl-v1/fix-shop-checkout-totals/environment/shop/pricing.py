from decimal import Decimal

from .money import fmt, round_cents

BULK_QTY = 10
BULK_RATE = Decimal("0.10")


def line_amount(price, qty):
    amount = round_cents(price * qty)
    if qty > BULK_QTY:
        amount = round_cents(amount * (1 - BULK_RATE))
    return amount


def checkout(cart, catalog, coupon_percent=0, tax_rate="0"):
    subtotal = Decimal(0)
    for sku, qty in cart.lines():
        subtotal += line_amount(catalog[sku], qty)
    discount = round_cents(subtotal * Decimal(coupon_percent) / 100)
    tax = round_cents(subtotal * Decimal(tax_rate))
    total = subtotal - discount + tax
    return {"subtotal": fmt(subtotal), "discount": fmt(discount), "tax": fmt(tax), "total": fmt(total)}
