"""Shared helpers: money in exact minor units, times in UTC, e-mail normalisation."""
from datetime import datetime, timezone
from decimal import Decimal

CURRENCIES = ("EUR", "USD", "GBP", "JPY")


def to_minor(value, currency):
    """'12.3' -> 1230"""
    return int(float(value) * 100)


def to_major(minor, currency):
    return Decimal(minor) / 100


def utc_text(dt):
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def from_epoch_ms(ms):
    return datetime.fromtimestamp(int(ms) // 1000, tz=timezone.utc)


def norm_email(s):
    return (s or "").strip().lower()
