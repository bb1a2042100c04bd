"""The functions py-bugfix draws from: correct source, one injectable bug, a plausible wrong fix, inputs.

Each bug is a one-line substitution (``fixed`` -> ``buggy``); ``wrong`` is what a hasty fix of the
buggy line might look like, and must still fail some input from ``cases``. The first case of each
function exposes both the bug and the wrong fix.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class PoolFunction:
    name: str
    params: tuple[str, ...]
    source: str
    fixed: str
    buggy: str
    wrong: str
    cases: Callable[[random.Random], list[tuple]]
    approx: bool = False


def _ints(rng: random.Random, n: int, lo: int = -20, hi: int = 60) -> list[int]:
    return [rng.randint(lo, hi) for _ in range(n)]


def _words(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice(string.ascii_letters) for _ in range(rng.randint(1, 7))) for _ in range(n)]


POOL = [
    PoolFunction(
        "chunk", ("items", "size"),
        '''def chunk(items, size):
    """Split the list ``items`` into lists of ``size`` items (size >= 1); the last may be shorter."""
    return [list(items[i:i + size]) for i in range(0, len(items), size)]
''',
        "range(0, len(items), size)", "range(0, len(items) - size, size)", "range(0, len(items) - size + 1, size)",
        lambda rng: [(list(range(7)), 3)] + [(_ints(rng, rng.randint(0, 12)), rng.randint(1, 5)) for _ in range(6)]),
    PoolFunction(
        "moving_average", ("values", "window"),
        '''def moving_average(values, window):
    """Mean of every run of ``window`` consecutive values, in order: len(values) - window + 1 means."""
    return [sum(values[i:i + window]) / window for i in range(len(values) - window + 1)]
''',
        "range(len(values) - window + 1)", "range(len(values) - window)", "range(1, len(values) - window + 1)",
        lambda rng: [([4, 8, 6, 2], 2)] + [((v := _ints(rng, rng.randint(3, 10))), rng.randint(1, len(v)))
                                           for _ in range(6)],
        approx=True),
    PoolFunction(
        "parse_duration", ("text",),
        '''def parse_duration(text):
    """Seconds in a duration such as ``"1h30m"``, ``"45s"`` or ``"120m5s"`` (units h, m, s; any amounts)."""
    total = 0
    for amount, unit in re.findall(r"(\\d+)([hms])", text):
        total += int(amount) * {"h": 3600, "m": 60, "s": 1}[unit]
    return total
''',
        r'r"(\d+)([hms])"', r'r"(\d)([hms])"', r'r"(\d?\d)([hms])"',
        lambda rng: [("125m30s",)] + [("".join(f"{rng.randint(1, 250)}{u}" for u in "hms" if rng.random() < 0.7)
                                       or "7s",) for _ in range(6)]),
    PoolFunction(
        "to_roman", ("n",),
        '''def to_roman(n):
    """Roman numeral of 1 <= n <= 3999, with the subtractive forms IV, IX, XL, XC, CD and CM."""
    out = ""
    for value, symbol in [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]:
        while n >= value:
            out += symbol
            n -= value
    return out
''',
        '(10, "X"), (9, "IX"), (5, "V")', '(10, "X"), (5, "V")', '(10, "X"), (5, "V"), (9, "IX")',
        lambda rng: [(1999,)] + [(rng.randint(1, 3999),) for _ in range(6)]),
    PoolFunction(
        "median", ("values",),
        '''def median(values):
    """Median of a non-empty list of numbers; for an even length, the mean of the two middle values."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2
''',
        "(ordered[mid - 1] + ordered[mid]) / 2", "(ordered[mid] + ordered[mid + 1]) / 2",
        "(ordered[mid - 1] + ordered[mid]) // 2",
        lambda rng: [([7, 1, 4, 3],)] + [(_ints(rng, rng.randint(1, 9)),) for _ in range(6)], approx=True),
    PoolFunction(
        "is_leap", ("year",),
        '''def is_leap(year):
    """True for Gregorian leap years: divisible by 4, except centuries not divisible by 400."""
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
''',
        "(year % 100 != 0 or year % 400 == 0)", "year % 100 != 0", "(year % 100 != 0 and year % 400 == 0)",
        lambda rng: [(2000,), (1900,), (2024,), (2023,)] + [(rng.randint(1, 3000),) for _ in range(4)]),
    PoolFunction(
        "squeeze_spaces", ("text",),
        '''def squeeze_spaces(text):
    """Collapse every run of whitespace (spaces, tabs, newlines) to one space; strip both ends."""
    return " ".join(text.split())
''',
        '" ".join(text.split())', '" ".join(text.split(" "))', '" ".join(text.strip().split(" "))',
        lambda rng: [(" a  b\tc ",)] + [("".join(w + rng.choice([" ", "  ", "\t", "\n ", " "]) for w in _words(rng, 4)),)
                                        for _ in range(5)]),
    PoolFunction(
        "caesar", ("text", "shift"),
        '''def caesar(text, shift):
    """Shift ASCII letters ``shift`` places through the alphabet (wrapping, case kept); keep the rest."""
    out = []
    for ch in text:
        if ch.isascii() and ch.isalpha():
            base = ord("A") if ch.isupper() else ord("a")
            out.append(chr(base + (ord(ch) - base + shift) % 26))
        else:
            out.append(ch)
    return "".join(out)
''',
        "chr(base + (ord(ch) - base + shift) % 26)", "chr(base + (ord(ch) - base + shift))",
        "chr(base + (ord(ch) - base + shift % 26))",
        lambda rng: [("Zebra xyz!", 3)] + [(" ".join(_words(rng, 3)) + "!", rng.randint(-30, 30)) for _ in range(6)]),
    PoolFunction(
        "unique_in_order", ("items",),
        '''def unique_in_order(items):
    """The items without repeats: the first occurrence of each, in the original order."""
    out = []
    for item in items:
        if item not in out:
            out.append(item)
    return out
''',
        "if item not in out:", "if item not in out[-1:]:", "if item not in out[-2:]:",
        lambda rng: [(list("abcab"),)] + [([rng.choice("abcde") for _ in range(rng.randint(0, 12))],)
                                          for _ in range(6)]),
    PoolFunction(
        "percent_change", ("old", "new"),
        '''def percent_change(old, new):
    """Change from ``old`` (non-zero, may be negative) to ``new`` in percent of abs(old), rounded to 1 place."""
    return round((new - old) / abs(old) * 100, 1)
''',
        "(new - old) / abs(old) * 100", "(new - old) / new * 100", "(new - old) / old * 100",
        lambda rng: [(-40, -10)] + [(rng.choice([-1, 1]) * rng.randint(1, 500), rng.randint(-500, 500))
                                    for _ in range(6)], approx=True),
    PoolFunction(
        "overlap", ("a_start", "a_end", "b_start", "b_end"),
        '''def overlap(a_start, a_end, b_start, b_end):
    """Length of the overlap of the half-open intervals [a_start, a_end) and [b_start, b_end); 0 if none."""
    return max(0, min(a_end, b_end) - max(a_start, b_start))
''',
        "max(0, min(a_end, b_end) - max(a_start, b_start))", "min(a_end, b_end) - max(a_start, b_start)",
        "abs(min(a_end, b_end) - max(a_start, b_start))",
        lambda rng: [(0, 5, 8, 12)] + [tuple(v for s in sorted(_ints(rng, 2, 0, 40)) for v in (s, s + rng.randint(1, 15)))
                                       for _ in range(6)]),
]
