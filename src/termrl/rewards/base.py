"""The judge contract: a :class:`Judge` scores HOW an agent worked, from its trajectory, on four criteria.

=================  ======  ==================================================================
criterion          weight  question
=================  ======  ==================================================================
action_success     0.35    Did the actions run, and did the agent recover from the failures?
task_management    0.25    Did it plan with the todo list up front and keep the list current?
phase_adherence    0.25    Explore -> plan -> execute -> verify, in that order?
tool_use           0.15    Purposeful actions: no repeats, no retrying a failure unchanged?
=================  ======  ==================================================================

The implementations (``rubric.py``, ``llm_judge.py``) and the registry (``judges.py``) build on this module.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Protocol, runtime_checkable

from termrl.types import Score, Trajectory

CRITERIA = ("action_success", "task_management", "phase_adherence", "tool_use")
"""The judged criteria, in table order; a judge's ``Score.parts`` has one value per criterion."""


@runtime_checkable
class Judge(Protocol):
    name: str
    """Short name recorded with the score: rubric | llm | a plugin's own."""

    def score(self, instruction: str, trajectory: Trajectory) -> Score:
        """Rate how the agent worked on ``instruction``; ``Score.value`` in [0, 1], criteria in ``parts``.

        Raises:
            JudgeError: the judge could not produce a score (recorded on the episode; the
                reward then comes from the tests alone).
        """
        ...


@dataclass(frozen=True)
class CriterionWeights:
    """How the four criteria mix into a judge's value (normalised by their sum)."""

    action_success: float = 0.35
    """Actions that ran, plus half credit for failures the agent recovered from."""
    task_management: float = 0.25
    """Todo list made early, broken down, and kept up to date."""
    phase_adherence: float = 0.25
    """Explore before changing, plan, execute, verify after the last change."""
    tool_use: float = 0.15
    """No redundant actions, no unchanged retries of a failure, no unusable replies."""

    def __post_init__(self) -> None:
        values = [getattr(self, f.name) for f in fields(self)]
        if any(not isinstance(v, (int, float)) or v < 0 for v in values) or sum(values) <= 0:
            raise ValueError(f"CriterionWeights: weights must be >= 0 and not all 0, got {values} "
                             "-- fix: use e.g. the defaults 0.35/0.25/0.25/0.15")

    def mean(self, parts: dict[str, float]) -> float:
        total = sum(getattr(self, c) for c in CRITERIA)
        return sum(getattr(self, c) * parts[c] for c in CRITERIA) / total

