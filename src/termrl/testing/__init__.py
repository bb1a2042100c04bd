"""Helpers for tests and benchmarks that need real faults (see faults.py)."""
