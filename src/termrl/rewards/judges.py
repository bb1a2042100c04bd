"""Judges: score HOW an agent worked, from its trajectory (the tests score WHAT it achieved).

Both judges rate the same four criteria, after Terminal-Bench-RL's judge:

=================  ======  ==================================================================
criterion          weight  question
=================  ======  ==================================================================
action_success     0.35    Did the actions run, and did the agent recover from the failures?
task_management    0.25    Did it plan with the todo list up front and keep the list current?
phase_adherence    0.25    Explore -> plan -> execute -> verify, in that order?
tool_use           0.15    Purposeful actions: no repeats, no retrying a failure unchanged?
=================  ======  ==================================================================

The value is the weighted mean of the criteria, in [0, 1].

* :class:`RubricJudge` (the default) computes them from trajectory facts: offline,
  deterministic, free. Its formulas are in its docstring.
* :class:`LLMJudge` asks a model (any :class:`~termrl.policies.base.Policy`) with the rubric
  in ``prompts/llm_judge.md`` and parses per-criterion scores from its JSON reply.

``get_judge("rubric" | "llm" | "none" | "package.module:Class")`` builds one by name.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, fields
from typing import Protocol, runtime_checkable

from termrl.policies.base import Policy
from termrl.types import Score, Trajectory


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


CRITERIA = ("action_success", "task_management", "phase_adherence", "tool_use")


# --- registry -------------------------------------------------------------------------------------

JUDGES = ("rubric", "llm", "none")


def get_judge(name: str, policy: Policy | None = None) -> Judge | None:
    """A judge by short name: ``rubric`` (default), ``llm`` (needs ``policy``), ``none`` (returns None:
    the reward comes from the tests alone), or ``package.module:Class`` for a plugin (built with
    ``policy=`` when one is given).

    Raises:
        ValueError: an unknown name, a plugin that cannot be loaded, or ``llm`` without a policy.
    """
    if name == "rubric":
        return RubricJudge()
    if name == "none":
        return None
    if name == "llm":
        if policy is None:
            raise ValueError("judge 'llm' needs a policy (the model that judges) -- fix: pass policy=, "
                             "or use the offline judge 'rubric'")
        return LLMJudge(policy)
    if ":" in name:
        module, _, attr = name.partition(":")
        try:
            cls = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise ValueError(f"cannot load judge {name!r}: {exc} -- fix: check the module:Class path") from exc
        return cls(policy=policy) if policy is not None else cls()
    raise ValueError(f"unknown judge {name!r} -- fix: use one of {', '.join(JUDGES)} or package.module:Class")


# The implementations live in their own modules; importing them last lets them use the contract above.
from termrl.rewards.llm_judge import JudgeReplyError, LLMJudge, parse_judge_reply, render_trajectory  # noqa: E402
from termrl.rewards.rubric import RubricJudge  # noqa: E402

__all__ = ["CRITERIA", "CriterionWeights", "Judge", "JudgeReplyError", "LLMJudge", "RubricJudge", "get_judge",
           "parse_judge_reply", "render_trajectory"]
