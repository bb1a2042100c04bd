from decimal import Decimal


def round_cents(value):
    """Round a Decimal to cents, half-up."""
    return Decimal(str(round(float(value), 2)))


def fmt(value):
    return f"{round_cents(value):.2f}"
