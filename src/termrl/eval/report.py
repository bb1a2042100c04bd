"""Evaluation summaries: pass@k (unbiased estimator), resolved rate, mean reward, per task."""

from __future__ import annotations

from collections import defaultdict
from math import comb

from termrl.types import EpisodeResult


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from n episodes of which c resolved: 1 - C(n-c, k) / C(n, k)."""
    if n < k:
        k = n
    if n == 0:
        return 0.0
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def eval_summary(results: list[EpisodeResult], k: int) -> dict:
    by_task: dict[str, list[EpisodeResult]] = defaultdict(list)
    for r in results:
        by_task[r.task].append(r)
    tasks = {}
    for name in sorted(by_task):
        rows = by_task[name]
        c = sum(r.resolved for r in rows)
        tasks[name] = {"episodes": len(rows), "resolved": c, "pass_at_k": pass_at_k(len(rows), c, k),
                       "mean_reward": sum(r.reward for r in rows) / len(rows)}
    n = max(len(results), 1)
    return {
        "k": k,
        "episodes": len(results),
        "pass_at_k": sum(t["pass_at_k"] for t in tasks.values()) / max(len(tasks), 1),
        "resolved_rate": sum(r.resolved for r in results) / n,
        "mean_reward": sum(r.reward for r in results) / n,
        "errors": sum(r.error is not None for r in results),
        "tasks": tasks,
    }
