"""Tiny text statistics."""
__version__ = "0.4.1"
