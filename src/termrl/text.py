"""Cutting long text for display: the head and the tail are kept, the middle is counted and dropped.

(The sandbox's output cap does the same to a byte stream as it arrives: ``termrl.sandbox.stream``.)
"""

from __future__ import annotations


def head_tail(text: str, budget: int, sep: str = "\n") -> tuple[str, bool]:
    """``text`` within about ``budget`` characters, and whether it was cut.

    A cut keeps the first and last ``budget // 2`` characters with a marker between them that says
    how many were dropped; ``sep`` goes around the marker (a space keeps a one-line view one line).
    """
    if len(text) <= budget:
        return text, False
    half = max(budget // 2, 1)
    return f"{text[:half]}{sep}[... {len(text) - 2 * half} characters omitted ...]{sep}{text[-half:]}", True
