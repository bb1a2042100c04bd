"""Live progress of a training run: the step, its phase (rollout, update, eval) and an ETA.

The ETA is the mean duration of the steps run so far in this session times the steps left,
capped by what is left of the time budget (``time_budget_min``), since the run stops there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field


def _duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m{s:02d}s" if m else f"{s}s"


@dataclass
class TrainProgress:
    total_steps: int
    start_step: int
    """The step this session started from (a resumed run starts past 0)."""
    budget_min: float = 0.0
    """The run's time budget in minutes (0 = none)."""
    started: float = field(default_factory=time.monotonic)

    def eta_s(self, step: int, now: float | None = None) -> tuple[float | None, bool]:
        """Seconds until the run ends, and whether the time budget (not the step count) ends it.
        None until a step has finished in this session (unless the budget alone bounds it)."""
        elapsed = (now if now is not None else time.monotonic()) - self.started
        by_steps = None
        if step > self.start_step:
            by_steps = elapsed / (step - self.start_step) * max(self.total_steps - step, 0)
        budget_left = max(self.budget_min * 60 - elapsed, 0.0) if self.budget_min else None
        if budget_left is not None and (by_steps is None or budget_left < by_steps):
            return budget_left, True
        return by_steps, False

    def describe(self, step: int, phase: str | None = None, now: float | None = None) -> str:
        """``step 3/40 · rollout · ETA 12m30s`` (``(time budget)`` when the budget ends the run first)."""
        eta, by_budget = self.eta_s(step, now)
        parts = [f"step {min(step + (1 if phase in ('rollout', 'update') else 0), self.total_steps)}/{self.total_steps}"]
        if phase:
            parts.append(phase)
        parts.append("ETA " + ("–" if eta is None else _duration(eta) + (" (time budget)" if by_budget else "")))
        return " · ".join(parts)
