"""Acme report tools."""
__version__ = "1.4.2"
