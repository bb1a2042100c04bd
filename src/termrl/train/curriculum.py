"""Curriculum: training stages from easy to hard, promotion on the rolling pass rate, replay, and
judge-weight annealing. Pure functions over tasks and a small state record.

* **Stages** group the training tasks by their difficulty label (``stage_by: difficulty``: each stage
  names one or more labels, ``"medium,hard"``) or by a measured pass rate (``stage_by: pass_rate``:
  descending lower bounds; stage i holds the tasks not in an earlier stage whose pass rate is at least
  ``pass_rate_bounds[i]``; the last stage takes the rest, tasks with no estimate included).
* **Promotion**: after every step the resolved rate of that step's current-stage episodes (replayed
  tasks left out: they are easier and would inflate it) enters a rolling window of ``window`` steps;
  when the window is full and its mean reaches ``promote_at``, the run moves to the next stage and
  the window starts afresh. The last stage is never left.
* **Replay**: in stage s > 0 a share ``replay`` of each draw comes from stages 0..s-1, so what was
  learned early keeps being rehearsed.
* **State** (stage, window, promotions) is saved in each checkpoint, so a resumed run continues in the
  stage it was in, with the same window.
* **Judge-weight annealing** moves the reward from the configured test/judge weights (0.65/0.35 by
  default) towards ``judge_weight_to`` (0 = tests only), linearly over ``steps`` steps or over the
  stages (stage 0 starts at the configured weight, the last stage reaches the target). The two
  weights keep their sum.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Literal

from termrl.types import Task


@dataclass
class CurriculumConfig:
    enabled: bool = False
    """Train in stages, easy to hard (off: every step draws from all training tasks)."""
    stage_by: Literal["difficulty", "pass_rate"] = "difficulty"
    """How tasks are staged: their difficulty label (task.toml), or their measured pass rate
    (``termrl tasks difficulty``)."""
    stages: list[str] = field(default_factory=lambda: ["easy", "medium", "hard,extremely_hard"])
    """stage_by difficulty: the labels of each stage, in order; several labels comma-separated."""
    pass_rate_bounds: list[float] = field(default_factory=lambda: [0.5, 0.2])
    """stage_by pass_rate: descending lower bounds of each stage but the last (which takes the rest)."""
    promote_at: float = 0.5
    """Move to the next stage when the rolling training resolved rate of the current stage reaches this."""
    window: int = 3
    """Steps in the rolling window (promotion needs a full window)."""
    replay: float = 0.25
    """Share of each step's tasks drawn from earlier stages (0 = none)."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.promote_at <= 1.0:
            raise ValueError(f"curriculum.promote_at must be in [0, 1], got {self.promote_at}")
        if self.window < 1:
            raise ValueError(f"curriculum.window must be >= 1 step, got {self.window}")
        if not 0.0 <= self.replay < 1.0:
            raise ValueError(f"curriculum.replay must be in [0, 1), got {self.replay}")
        if self.stage_by == "difficulty" and not self.stages:
            raise ValueError("curriculum.stages: name at least one stage of difficulty labels, e.g. [easy, medium]")
        bounds = self.pass_rate_bounds
        if any(not 0.0 <= b <= 1.0 for b in bounds) or any(a <= b for a, b in zip(bounds, bounds[1:])):
            raise ValueError(f"curriculum.pass_rate_bounds must descend strictly within [0, 1], got {bounds}")

    def n_stages(self) -> int:
        return len(self.stages) if self.stage_by == "difficulty" else len(self.pass_rate_bounds) + 1


@dataclass
class AnnealConfig:
    judge_weight_to: float | None = None
    """Anneal the judge weight towards this value (0 = tests only); null = off (fixed weights)."""
    over: Literal["steps", "stages"] = "steps"
    """Linear over ``steps`` training steps, or over the curriculum's stages."""
    steps: int = 20
    """over steps: reach the target after this many steps."""

    def __post_init__(self) -> None:
        if self.judge_weight_to is not None and not 0.0 <= self.judge_weight_to <= 1.0:
            raise ValueError(f"anneal.judge_weight_to must be in [0, 1] or null, got {self.judge_weight_to}")
        if self.steps < 1:
            raise ValueError(f"anneal.steps must be >= 1, got {self.steps}")


def annealed_weights(test_weight: float, judge_weight: float, config: AnnealConfig, *, step: int, stage: int = 0,
                     n_stages: int = 1) -> tuple[float, float]:
    """(test weight, judge weight) at ``step`` / ``stage``; their sum stays ``test_weight + judge_weight``."""
    if config.judge_weight_to is None:
        return test_weight, judge_weight
    if config.over == "steps":
        frac = min(max(step, 0) / config.steps, 1.0)
    else:
        frac = min(stage / (n_stages - 1), 1.0) if n_stages > 1 else 1.0
    judge = judge_weight + (config.judge_weight_to - judge_weight) * frac
    return test_weight + judge_weight - judge, judge


def assign_stages(tasks: list[Task], config: CurriculumConfig,
                  pass_rates: dict[str, float | None] | None = None) -> list[list[Task]]:
    """The tasks of each stage, in stage order.

    Raises:
        ValueError: a task whose difficulty label no stage names, or a stage left without tasks
            (the message names the stage and the labels or bounds to change).
    """
    stages: list[list[Task]] = [[] for _ in range(config.n_stages())]
    if config.stage_by == "difficulty":
        where = {label.strip(): i for i, names in enumerate(config.stages) for label in names.split(",")}
        for task in tasks:
            label = task.metadata.difficulty
            if label not in where:
                raise ValueError(f"curriculum.stages: task {task.name} has difficulty {label!r}, which no stage "
                                 f"names ({config.stages}) -- add it to a stage")
            stages[where[label]].append(task)
        names = config.stages
    else:
        rates = pass_rates or {}
        for task in tasks:
            rate = rates.get(task.name)
            index = next((i for i, b in enumerate(config.pass_rate_bounds) if rate is not None and rate >= b),
                         len(config.pass_rate_bounds))
            stages[index].append(task)
        names = [f"pass rate >= {b:g}" for b in config.pass_rate_bounds] + ["the rest"]
    for i, members in enumerate(stages):
        if not members:
            raise ValueError(f"curriculum: stage {i} ({names[i]}) has no training task -- change "
                             f"curriculum.{'stages' if config.stage_by == 'difficulty' else 'pass_rate_bounds'} "
                             "or add tasks")
    return stages


@dataclass
class CurriculumState:
    stage: int = 0
    steps_in_stage: int = 0
    window: list[float] = field(default_factory=list)
    """The current stage's training resolved rate of the last ``window`` steps."""
    promotions: list[dict] = field(default_factory=list)
    """{"step", "to", "pass_rate"} for each promotion so far."""

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict | None) -> "CurriculumState":
        return cls(**data) if data else cls()


def observe(state: CurriculumState, pass_rate: float | None, *, step: int, config: CurriculumConfig,
            n_stages: int) -> CurriculumState:
    """The state after a step whose current-stage episodes resolved at ``pass_rate`` (None: none ran)."""
    window = list(state.window) if pass_rate is None else (state.window + [pass_rate])[-config.window:]
    new = CurriculumState(state.stage, state.steps_in_stage + 1, window, list(state.promotions))
    mean = sum(window) / len(window) if window else 0.0
    if state.stage < n_stages - 1 and len(window) >= config.window and mean >= config.promote_at:
        new.promotions.append({"step": step, "to": state.stage + 1, "pass_rate": round(mean, 4)})
        new.stage, new.steps_in_stage, new.window = state.stage + 1, 0, []
    return new


def draw(stages: list[list[Task]], stage: int, n: int, rng: random.Random, replay: float,
         exclude: set[str] = frozenset()) -> tuple[list[Task], list[Task]]:
    """(current-stage tasks, replayed tasks): ``n`` tasks in all where the pools allow, none in ``exclude``.

    The replayed share is round(n x replay), at least one when replay > 0 and n > 1, from stages before
    ``stage``; what one pool lacks the other makes up.
    """
    current = [t for t in stages[stage] if t.name not in exclude]
    earlier = [t for s in stages[:stage] for t in s if t.name not in exclude]
    n_replay = 0
    if stage > 0 and replay > 0 and earlier:
        n_replay = max(round(n * replay), 1 if n > 1 else 0)
    n_replay = min(n_replay, len(earlier))
    n_current = min(n - n_replay, len(current))
    n_replay = min(n - n_current, len(earlier))  # the current stage ran short: replay more
    return rng.sample(current, n_current), rng.sample(earlier, n_replay)
