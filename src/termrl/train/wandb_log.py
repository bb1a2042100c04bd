"""Weights & Biases logging beside TensorBoard (``logging.wandb`` in the training config).

Offline mode writes the run under ``OUT/wandb/`` with no network (``wandb sync`` uploads it later);
online mode streams it. The run id is kept in ``OUT/wandb-run-id`` so a resumed training run goes
on logging into the same W&B run.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from termrl.train.config import WandbConfig


class WandbLog:
    def __init__(self, config: WandbConfig, out: Path, run_config: dict[str, Any]):
        try:
            import wandb
        except ImportError as exc:
            raise ValueError("logging.wandb is set but the wandb package is not installed -- fix: "
                             "pip install 'termrl[wandb]', or remove logging.wandb from the config") from exc
        id_file = out / "wandb-run-id"
        run_id = id_file.read_text().strip() if id_file.is_file() else uuid.uuid4().hex[:12]
        id_file.write_text(run_id)
        self.run = wandb.init(project=config.project, entity=config.entity, name=config.name or out.resolve().name,
                              mode=config.mode, dir=str(out), id=run_id, resume="allow", config=run_config,
                              settings=wandb.Settings(silent=True, console="off"))

    def log(self, step: int, metrics: dict[str, Any]) -> None:
        numbers = {k: v for k, v in metrics.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
        if numbers:
            self.run.log(numbers, step=step)

    def close(self) -> None:
        self.run.finish()
