#!/bin/bash
set -euo pipefail
cat > /app/intervals.py <<'PY'
"""Small helpers for working with closed integer intervals."""


def merge_intervals(intervals):
    """Merge overlapping or touching closed intervals.

    ``intervals`` is a list of ``(start, end)`` pairs with ``start <= end``, in any
    order. Two intervals are merged when they overlap or touch (``[1, 3]`` and
    ``[3, 5]`` become ``[1, 5]``). Returns a new list of ``(start, end)`` tuples
    sorted by start. The input list is not modified.
    """
    if not intervals:
        return []
    ordered = sorted(intervals)
    merged = [list(ordered[0])]
    for start, end in ordered[1:]:
        last = merged[-1]
        if start <= last[1]:
            last[1] = max(last[1], end)
        else:
            merged.append([start, end])
    return [tuple(pair) for pair in merged]


def total_covered(intervals):
    """Number of integer points covered by at least one closed interval."""
    return sum(end - start + 1 for start, end in merge_intervals(intervals))
PY
