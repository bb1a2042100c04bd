"""`termrl train`: GRPO training from a YAML config."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from termrl.cli.app import app
from termrl.cli.common import console, fail, parse_overrides, progress_bars, setup_logging
from termrl.errors import TermrlError


@app.command()
def train(
    config: Optional[Path] = typer.Option(Path("configs/cpu-smollm2.yaml"), "--config", "-c",
                                          help="YAML config (configs/ has presets)."),
    sets: Optional[list[str]] = typer.Option(None, "--set", help="Override a setting: KEY=VALUE (dotted keys)."),
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Train a policy with GRPO on rollouts in Docker. Resumable: rerun the same command."""
    from termrl.train.config import load_config
    from termrl.train.trainer import Trainer

    setup_logging(verbose)
    try:
        cfg = load_config(config, parse_overrides(sets))
    except ValueError as exc:
        fail(str(exc))
    try:
        trainer = Trainer(cfg)
    except (TermrlError, ValueError, OSError) as exc:  # no tasks, no Docker engine, no model, unwritable out_dir
        fail(f"cannot start training: {exc}")
    if trainer.step:
        console.print(f"resuming at step {trainer.step}")
    with progress_bars() as progress:
        bar = progress.add_task("training steps", total=cfg.steps, completed=trainer.step)

        def report(step: int, m: dict) -> None:
            progress.update(bar, completed=step)
            progress.console.print(
                f"step {step}: reward {m.get('train/reward_mean', 0):.3f} resolved {m.get('train/resolved_rate', 0):.2f} "
                f"loss {m.get('loss', 0):.4f} clip {m.get('clip_fraction', 0):.3f} "
                f"entropy {m.get('entropy', 0):.2f} tokens/s {m.get('tokens_per_s', 0):.0f}")

        try:
            trainer.train(progress=report)
        except (TermrlError, ValueError, OSError) as exc:
            fail(f"training stopped at step {trainer.step}: {exc} -- the finished steps are saved; "
                 "rerun the same command to resume")
        finally:
            trainer.close()
    console.print(f"metrics: {Path(cfg.out_dir) / 'metrics.jsonl'}; tensorboard --logdir {Path(cfg.out_dir) / 'tensorboard'}")
