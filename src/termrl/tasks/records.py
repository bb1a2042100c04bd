"""The per-task validation record: what validating a task found, keyed by a digest of its folder.

A record is kept in the cache (``$TERMRL_CACHE/validation/<task>-<digest>.json``) for each valid
task, so an edited task (new digest) is validated afresh. The episode runner reads the tests the
no-op agent passes from it (they carry no signal, and partial credit leaves them out); the
trainer and the CLI read the rest. This module depends only on the records in ``termrl.types``:
validation itself (which runs episodes) lives in ``termrl.eval.validation``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from termrl.cache import CACHE_DIR
from termrl.types import Task


@dataclass(frozen=True)
class ValidationResult:
    """What validating one task found (``termrl tasks validate --json`` prints one per line)."""

    task: str
    valid: bool
    """Oracle reward 1 and no-op reward 0 every time, every wrong solution below 1, stable."""
    oracle_reward: float | None
    """The lowest oracle reward over the repeats (None: the task could not be built or loaded)."""
    nop_reward: float | None
    """The highest no-op reward over the repeats."""
    error: str | None
    """Every problem found, joined by ``; ``."""
    nop_passed_tests: list[str] = field(default_factory=list)
    """Tests the no-op agent passes: left out of partial credit."""
    path: str = ""
    wrong_rewards: dict[str, float] = field(default_factory=dict)
    """Reward of each plausible wrong solution (solution/wrong_*.sh): each must be < 1."""
    repeats: int = 1
    stable: bool = True
    """The same rewards in every repeat."""
    n_tests: int = 0
    """Tests the oracle's run reported (parametrized cases counted one by one)."""
    has_solution: bool = True
    """False: the task has no reference solution (e.g. imported from the seed's CSV), so only the build,
    the tests running and the no-op agent scoring 0 were checked."""
    digest: str = ""
    """:func:`task_digest` of the task folder that was validated."""

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> ValidationResult:
        """Parse a record written by :meth:`to_json` (keys it does not know are ignored)."""
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})


def _without_metadata(toml: bytes) -> bytes:
    """task.toml less its [metadata] table: labels (difficulty, category, tags, difficulty_why) do not
    change what a validation proves, so relabelling a task keeps its validation."""
    out, skipping = [], False
    for line in toml.splitlines(keepends=True):
        header = line.strip()
        if header.startswith(b"[") and not header.startswith(b"[["):
            skipping = header.replace(b" ", b"") == b"[metadata]"
        if not skipping:
            out.append(line)
    return b"".join(out)


def task_digest(path: Path) -> str:
    """A digest of every file in the task folder (names and contents), task.toml's [metadata] table left out."""
    h = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        data = file.read_bytes()
        if file.name == "task.toml" and file.parent == path:
            data = _without_metadata(data)
        h.update(file.relative_to(path).as_posix().encode() + b"\0" + data)
    return h.hexdigest()[:24]


def record_path(task: Task) -> Path:
    """Where the validation record of exactly this task folder is kept."""
    return CACHE_DIR / "validation" / f"{task.name}-{task_digest(task.path)}.json"


def save_record(task: Task, result: ValidationResult) -> Path:
    path = record_path(task)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result.to_json(), indent=1))
    return path


def load_record(task: Task) -> ValidationResult | None:
    """The validation record of exactly this task folder (same digest), if one was kept."""
    path = record_path(task)
    if not path.is_file():
        return None
    return ValidationResult.from_json(json.loads(path.read_text()))


def nop_passing_tests(task: Task) -> set[str] | None:
    """Tests the no-op agent passes, from the last validation of this exact task (None if never validated)."""
    record = load_record(task)
    return None if record is None else set(record.nop_passed_tests)


def cached_result(task: Task, min_repeats: int = 1) -> ValidationResult | None:
    """The last valid validation of exactly this task folder (same digest), if one was recorded."""
    result = load_record(task)
    return result if result is not None and result.valid and result.repeats >= min_repeats else None
