"""Range checks for settings dataclasses: one message shape, naming the field, the rule and the value.

A config loader prefixes the file and section (``cpu.yaml: grpo: mini_batches must be >= 1, got 0``).
"""

from __future__ import annotations

import math
from typing import Any


def check_range(owner: str, name: str, value: Any, *, low: float | None = None, high: float | None = None,
                low_open: bool = False, high_open: bool = False, fix: str = "") -> None:
    """Raise ValueError unless ``low <= value <= high`` (``<`` where the bound is open) and finite.

    Args:
        owner: the settings section (``grpo``, ``agent``); empty for top-level settings.
        name: the field.
        fix: how to fix it; default: the rule itself.
    """
    label = f"{owner}.{name}" if owner else name
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{label}: expected a finite number, got {value!r}")
    ok = True
    if low is not None:
        ok &= value > low if low_open else value >= low
    if high is not None:
        ok &= value < high if high_open else value <= high
    if not ok:
        rule = " and ".join(r for r in (
            "" if low is None else f"{'>' if low_open else '>='} {low:g}",
            "" if high is None else f"{'<' if high_open else '<='} {high:g}") if r)
        raise ValueError(f"{label} must be {rule}, got {value!r}" + (f" -- fix: {fix}" if fix else ""))
