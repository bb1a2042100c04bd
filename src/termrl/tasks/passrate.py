"""Measured pass rates per task and policy, kept beside the task's validation record (tasks/records.py).

``termrl tasks difficulty`` runs a policy N times on each task and records how many episodes
resolved it, with a Wilson score interval (it stays inside [0, 1] and is honest at 0/N and N/N,
where the normal approximation collapses to a zero-width interval). The record is keyed by the
task folder's digest (an edited task is measured afresh) and, inside it, by the policy, so
several models' estimates live side by side.

Training configs filter on the point estimate (``tasks.pass_rate: [low, high]``) and the
curriculum can stage by it.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

from termrl.cache import CACHE_DIR
from termrl.tasks.records import task_digest
from termrl.types import Task


@dataclass(frozen=True)
class PassRate:
    task: str
    policy: str
    """The policy key (``hf:SmolLM2-135M-Instruct``, ``openai:gpt-4o-mini``, ``oracle`` ...)."""
    digest: str
    episodes: int
    resolved: int
    low: float
    high: float
    """The 95% Wilson score interval."""
    date: str = ""

    @property
    def rate(self) -> float:
        return self.resolved / self.episodes if self.episodes else 0.0

    def to_json(self) -> dict:
        return {**asdict(self), "rate": round(self.rate, 4)}


def wilson_interval(resolved: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default); (0, 1) for n = 0."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= resolved <= n:
        raise ValueError(f"wilson_interval: resolved must be within 0..{n}, got {resolved}")
    p = resolved / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def policy_key(policy: str, model: str | None = None) -> str:
    """The key an estimate is stored under: ``hf:<model name>`` (the embedded model when unset), or the agent."""
    if policy in ("oracle", "nop"):
        return policy
    if model is None and policy == "hf":
        from termrl.policies.model import EMBEDDED_NAME

        model = EMBEDDED_NAME
    return f"{policy}:{Path(model).name if model and policy == 'hf' else model}"


def _digest(task: Task) -> str:
    return task_digest(task.path)


def record_path(task: Task, digest: str | None = None) -> Path:
    """``<cache>/validation/<task>-<digest>.passrate.json``, beside ``<task>-<digest>.json`` (the validation record)."""
    return CACHE_DIR / "validation" / f"{task.name}-{digest or _digest(task)}.passrate.json"


def load_pass_rates(task: Task) -> dict[str, PassRate]:
    """Every stored estimate of this exact task folder, by policy key."""
    path = record_path(task)
    if not path.is_file():
        return {}
    data = json.loads(path.read_text())
    known = set(PassRate.__dataclass_fields__)
    return {k: PassRate(**{f: v for f, v in entry.items() if f in known}) for k, entry in data.items()}


def save_pass_rate(task: Task, policy: str, resolved: int, episodes: int) -> PassRate:
    """Store (replace) the estimate of ``policy`` on ``task``; other policies' estimates stay."""
    digest = _digest(task)
    low, high = wilson_interval(resolved, episodes)
    estimate = PassRate(task.name, policy, digest, episodes, resolved, round(low, 4), round(high, 4),
                        dt.date.today().isoformat())
    path = record_path(task, digest)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.loads(path.read_text()) if path.is_file() else {}
    data[policy] = estimate.to_json()
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(path)
    return estimate


def pass_rates_for(tasks: list[Task], policy: str) -> dict[str, float | None]:
    """The point estimate of ``policy`` per task name (None where none is stored)."""
    out: dict[str, float | None] = {}
    for task in tasks:
        estimate = load_pass_rates(task).get(policy)
        out[task.name] = estimate.rate if estimate else None
    return out


def filter_by_pass_rate(tasks: list[Task], rates: dict[str, float | None], bounds: list[float],
                        missing: Literal["keep", "drop"] = "keep") -> tuple[list[Task], dict[str, int]]:
    """The tasks whose pass rate lies in [low, high]; tasks with no estimate kept or dropped as ``missing`` says.

    Returns the kept tasks (in order) and counts: kept, too_easy, too_hard, no_estimate.
    """
    low, high = bounds
    kept: list[Task] = []
    counts = {"kept": 0, "too_easy": 0, "too_hard": 0, "no_estimate": 0}
    for task in tasks:
        rate = rates.get(task.name)
        if rate is None:
            counts["no_estimate"] += 1
            if missing == "drop":
                continue
        elif rate > high:
            counts["too_easy"] += 1
            continue
        elif rate < low:
            counts["too_hard"] += 1
            continue
        kept.append(task)
        counts["kept"] += 1
    return kept, counts


BUCKETS = ((0.0, 0.0, "0"), (0.0, 0.25, "(0, 0.25]"), (0.25, 0.5, "(0.25, 0.5]"), (0.5, 0.75, "(0.5, 0.75]"),
           (0.75, 1.0, "(0.75, 1)"), (1.0, 1.0, "1"))


def bucket(rate: float) -> str:
    """The histogram bucket of a pass rate: exactly 0, four quarter-open bins, exactly 1."""
    if rate <= 0.0:
        return "0"
    if rate >= 1.0:
        return "1"
    for lo, hi, name in BUCKETS[1:-1]:
        if lo < rate <= hi:
            return name
    return "(0.75, 1)"


def pass_rate_distribution(tasks: list[Task]) -> dict[str, dict[str, int]]:
    """Per policy key with estimates for any of ``tasks``: how many tasks fall in each bucket (and ``unmeasured``)."""
    stored = [load_pass_rates(t) for t in tasks]
    keys = sorted({k for s in stored for k in s})
    out: dict[str, dict[str, int]] = {}
    for key in keys:
        counts = {name: 0 for _, _, name in BUCKETS}
        for s in stored:
            if key in s:
                counts[bucket(s[key].rate)] += 1
        counts["unmeasured"] = sum(key not in s for s in stored)
        out[key] = counts
    return out
