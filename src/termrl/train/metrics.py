"""What a training run reports: ``metrics.jsonl``, TensorBoard scalars and W&B, and the per-rollout summary."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import torch

from termrl.rollout.engine import Rollout


class MetricsLog:
    """metrics.jsonl plus TensorBoard scalars (when tensorboard is installed)."""

    def __init__(self, out: Path, wandb=None, run_config: dict[str, Any] | None = None,
                 resume_step: int | None = None):
        """``resume_step``: the run resumes from a checkpoint of this step, so what was logged for later steps
        (work lost with the process that logged it) is dropped here and logged again by the resumed run."""
        self.path = out / "metrics.jsonl"
        if resume_step is not None:
            self._drop_after(resume_step)
        try:
            from torch.utils.tensorboard import SummaryWriter

            purge = None if resume_step is None else resume_step + 1
            self.tb = SummaryWriter(str(out / "tensorboard"), purge_step=purge)
        except ImportError:  # pragma: no cover - tensorboard is a dependency
            self.tb = None
        self.wandb = None
        if wandb is not None:  # logging.wandb: W&B beside TensorBoard
            from termrl.train.wandb_log import WandbLog

            self.wandb = WandbLog(wandb, out, run_config or {})

    def _drop_after(self, step: int) -> None:
        if not self.path.is_file():
            return
        lines = self.path.read_text().splitlines(keepends=True)
        kept = [line for line in lines if _row_step(line) <= step]
        if len(kept) != len(lines):
            tmp = self.path.with_suffix(".jsonl.tmp")
            tmp.write_text("".join(kept))
            tmp.replace(self.path)

    def log(self, step: int, metrics: dict[str, Any]) -> None:
        with open(self.path, "a") as fh:
            fh.write(json.dumps({"step": step, "time": time.time(), **metrics}) + "\n")
        if self.tb:
            for key, value in metrics.items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    self.tb.add_scalar(key, value, step)
            self.tb.flush()
        if self.wandb:
            self.wandb.log(step, metrics)

    def close(self) -> None:
        if self.wandb:
            self.wandb.close()
            self.wandb = None


def _row_step(line: str) -> float:
    """The step of a metrics.jsonl line; a line cut short by a crash counts as past every step (dropped)."""
    try:
        return json.loads(line)["step"]
    except (ValueError, KeyError, TypeError):
        return float("inf")


def rollout_summary(rollout: Rollout, prefix: str) -> dict[str, float]:
    """Reward, resolved rate, test and judge scores and error count of a rollout's episodes, keys prefixed."""
    results = [r for group in rollout.groups.values() for r in group]
    if not results:
        return {}
    rewards = torch.tensor([r.reward for r in results])
    out = {
        f"{prefix}reward_mean": float(rewards.mean()),
        f"{prefix}reward_std": float(rewards.std(unbiased=False)),
        f"{prefix}resolved_rate": sum(r.resolved for r in results) / len(results),
        f"{prefix}episodes": len(results),
        f"{prefix}errors": sum(r.error is not None for r in results),
    }
    # reference agents have no trajectory: their test score is the script's reward, not partial credit
    tests = [r.test_score for r in results if r.trajectory is not None]
    judges = [r.judge_score for r in results if r.judge_score is not None]
    if tests:
        out[f"{prefix}test_score"] = sum(tests) / len(tests)
    if judges:
        out[f"{prefix}judge_score"] = sum(judges) / len(judges)
    return out
