"""How different a family's instances really are: distinct reference-solution programs per N seeds.

Two instances need *the same program* when their ``solution/solve.sh`` are equal after the data in them
is blanked out. Blanking (:func:`normalise_program`):

- every number becomes ``N``;
- every quoted string that holds only data (letters, digits, spaces and ``_-./:,@%+=#``; no brackets,
  operators or quotes, i.e. no code) becomes ``S``;
- every word drawn from the generators' name pools (module-level lists of plain words such as
  ``WORDS``, ``CITIES``, ``FIRST_NAMES``: the names a seed picks for files, branches, services) becomes ``W``;
- blank lines and trailing spaces are dropped, and a run of identical lines counts once (the same step
  done for 2 or for 5 files is the same program).

Code stays as it is, including code inside quoted strings (a bug fix given as old and new source text
is a different program when the source differs, not when only a constant does). So a family whose
seeds only change names, numbers and file contents scores 1 per level, however many seeds are drawn,
and a family scores high only when seeds change formats, fields, failure modes or the steps to take.

    termrl tasks generator-stats --seeds 100
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import pkgutil
import re
from dataclasses import dataclass

_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")
_DATA_CHARS = r"[\w \-./:,@%+=#\\]*"
_QUOTED = re.compile(r"'(" + _DATA_CHARS + r")'|\"(" + _DATA_CHARS + r")\"")


_PLAIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")


@functools.lru_cache(maxsize=1)
def _pool_words() -> re.Pattern:
    """Words of the generators' module-level name pools (lists/tuples of plain words, >= 3 letters)."""
    import termrl.tasks.generators as package

    words: set[str] = set()
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, (list, tuple)) and len(value) >= 4 and all(
                    isinstance(v, str) and _PLAIN_WORD.fullmatch(v) for v in value):
                words.update(v.lower() for v in value if len(v) >= 3)
    alternatives = "|".join(sorted(map(re.escape, words), key=len, reverse=True)) or "(?!)"
    return re.compile(r"(?<![A-Za-z])(?:" + alternatives + r")(?![a-z])", re.IGNORECASE)


def normalise_program(solve: str) -> str:
    """The solve.sh with its data blanked out (see the module docstring)."""
    text = _QUOTED.sub("S", solve)
    text = _pool_words().sub("W", text)
    text = _NUMBER.sub("N", text)
    out: list[str] = []
    for line in (line.rstrip() for line in text.splitlines()):
        if line and (not out or out[-1] != line):
            out.append(line)
    return "\n".join(out)


def program_digest(solve: str) -> str:
    return hashlib.sha256(normalise_program(solve).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class FamilyDiversity:
    family: str
    difficulty: int
    seeds: int
    distinct_programs: int
    """Distinct normalised solve.sh among the seeds."""
    distinct_instructions: int
    """Distinct instruction texts with numbers blanked (how many different briefs the agent sees)."""

    @property
    def per_100(self) -> float:
        return round(100 * self.distinct_programs / max(self.seeds, 1), 1)

    def to_json(self) -> dict:
        return {"family": self.family, "difficulty": self.difficulty, "seeds": self.seeds,
                "distinct_programs": self.distinct_programs, "programs_per_100_seeds": self.per_100,
                "distinct_instructions": self.distinct_instructions}


def family_diversity(family: str, difficulty: int, seeds: int = 100, first_seed: int = 0) -> FamilyDiversity:
    """Build ``seeds`` instances in memory (nothing is written) and count distinct programs."""
    from termrl.tasks.generators import build

    programs, instructions = set(), set()
    for seed in range(first_seed, first_seed + seeds):
        instance = build(family, seed, difficulty)
        programs.add(program_digest(instance.solve))
        instructions.add(_NUMBER.sub("N", instance.instruction))
    return FamilyDiversity(family, difficulty, seeds, len(programs), len(instructions))


def all_diversity(families: list[str] | None = None, seeds: int = 100) -> list[FamilyDiversity]:
    from termrl.tasks.generators import DIFFICULTIES, FAMILIES

    names = families or sorted(FAMILIES)
    unknown = [f for f in names if f not in FAMILIES]
    if unknown:
        raise ValueError(f"unknown task family {unknown[0]!r} -- fix: use one of {', '.join(sorted(FAMILIES))}")
    return [family_diversity(f, d, seeds) for f in names for d in sorted(DIFFICULTIES)]
