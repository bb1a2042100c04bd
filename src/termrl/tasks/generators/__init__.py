"""Procedural task generators: unlimited distinct Harbor tasks from (family, seed, difficulty).

Each family lives in its own module and registers one :class:`Family`. An instance is fully
determined by its family, seed and difficulty (1 = easy, 2 = medium, 3 = hard: more files,
steps and edge cases); the reference answers are computed here and shipped only in the hidden
tests, never in the agent's environment.

    >>> generate("log-report", seed=7, difficulty=2, out=Path("gen"))
    PosixPath('gen/log-report-s7-d2')
"""

from __future__ import annotations

import random
from pathlib import Path

from termrl.tasks.generators import (bugfix, csv_transform, dedup_merge, file_sort, git_recover, http_service,
                                     ini_repair, json_migrate, log_report, text_extract, unit_convert)
from termrl.tasks.generators._common import DIFFICULTIES, Family, Instance, write_instance

__all__ = ["EASY_FILES", "FAMILIES", "Family", "Instance", "build", "family_names", "generate", "instance_name"]

FAMILIES: dict[str, Family] = {f.name: f for f in (
    log_report.FAMILY,
    ini_repair.FAMILY,
    csv_transform.FAMILY,
    bugfix.FAMILY,
    file_sort.FAMILY,
    git_recover.FAMILY,
    http_service.FAMILY,
    text_extract.FAMILY,
    unit_convert.FAMILY,
    dedup_merge.FAMILY,
    json_migrate.FAMILY,
)}


EASY_FILES = "easy-files"
"""The tiny family the CPU training preset learns on (termrl.tasks.easy; one command solves it)."""


def family_names() -> list[str]:
    return sorted([*FAMILIES, EASY_FILES])


def _easy(family: str, seed: int, difficulty: int, out: Path) -> Path:
    from termrl.tasks.easy import generate_easy

    if isinstance(difficulty, bool) or difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be 1, 2 or 3 (easy, medium, hard), got {difficulty!r}")
    task_dir = Path(out) / instance_name(family, seed, difficulty)
    if task_dir.exists():
        raise FileExistsError(f"{task_dir} already exists -- fix: remove it or pass another --out folder")
    return generate_easy(seed, difficulty, Path(out))


def _check(family: str, difficulty: int) -> Family:
    if family not in FAMILIES:
        raise ValueError(f"unknown task family {family!r} -- fix: use one of {', '.join(family_names())}")
    if isinstance(difficulty, bool) or not isinstance(difficulty, int) or difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be 1, 2 or 3 (easy, medium, hard), got {difficulty!r}")
    return FAMILIES[family]


def instance_name(family: str, seed: int, difficulty: int) -> str:
    return f"{family}-s{seed}-d{difficulty}"


def build(family: str, seed: int, difficulty: int) -> Instance:
    """The instance in memory (with its reference ``answer``), without writing anything.

    Raises:
        ValueError: unknown family, or difficulty outside 1..3.
    """
    fam = _check(family, difficulty)
    # A string seed is hashed with SHA-512 by `random`: stable across runs and Python versions.
    return fam.make(random.Random(f"{family}/{seed}/{difficulty}"), difficulty)


def generate(family: str, seed: int, difficulty: int, out: Path) -> Path:
    """Write the task folder ``out/<family>-s<seed>-d<difficulty>/`` and return its path.

    Raises:
        ValueError: unknown family, or difficulty outside 1..3.
        FileExistsError: the task folder already exists (remove it or choose another ``out``).
    """
    if family == EASY_FILES:
        return _easy(family, seed, difficulty, out)
    fam = _check(family, difficulty)
    task_dir = Path(out) / instance_name(family, seed, difficulty)
    if task_dir.exists():
        raise FileExistsError(f"{task_dir} already exists -- fix: remove it or pass another --out folder")
    return write_instance(build(family, seed, difficulty), fam, difficulty, task_dir)
