"""`termrl train`: GRPO training from a YAML config, with live progress (step, phase, ETA)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from termrl.cli.app import app
from termrl.cli.common import console, fail, parse_overrides, progress_bars, setup_logging
from termrl.errors import TermrlError
from termrl.rollout.shutdown import STOP, command_line


@app.command()
def train(
    config: Optional[Path] = typer.Option(Path("configs/cpu-smollm2.yaml"), "--config", "-c",
                                          help="YAML config (configs/ has presets)."),
    sets: Optional[list[str]] = typer.Option(None, "--set", help="Override a setting: KEY=VALUE (dotted keys)."),
    engine: str = typer.Option("termrl", "--engine", help="termrl (own trainer, one process) | trl (TRL's "
                               "GRPOTrainer; several processes: accelerate launch -m termrl.integrations.trl_main)"),
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Train a policy with GRPO on rollouts in Docker. Resumable: rerun the same command."""
    from termrl.train.config import load_config
    from termrl.train.trainer import Trainer

    setup_logging(verbose)
    if engine not in ("termrl", "trl"):
        fail(f"--engine {engine!r}: use termrl or trl")
    try:
        cfg = load_config(config, parse_overrides(sets))
    except ValueError as exc:
        fail(str(exc))
    if engine == "trl":
        _train_trl(cfg)
        return
    with STOP.installed(cfg.grace_s):
        _train(Trainer, cfg)
        if STOP.requested:  # one line: what stopped the run and how to go on
            print(STOP.resume_line(command_line()), file=sys.stderr, flush=True)
            raise typer.Exit(STOP.exit_code)
    console.print(f"metrics: {Path(cfg.out_dir) / 'metrics.jsonl'}; tensorboard --logdir {Path(cfg.out_dir) / 'tensorboard'}"
                  + (f"; W&B ({cfg.logging.wandb.mode}): {Path(cfg.out_dir) / 'wandb'}" if cfg.logging.wandb else "")
                  + f"; report: termrl report {cfg.out_dir}")


def _train(Trainer, cfg) -> None:
    from termrl.train.progress import TrainProgress

    try:
        trainer = Trainer(cfg)
    except (TermrlError, ValueError, OSError) as exc:  # no tasks, no Docker engine, no model, unwritable out_dir
        fail(f"cannot start training: {exc}")
    if trainer.step:
        console.print(f"resuming at step {trainer.step}")
    clock = TrainProgress(cfg.steps, trainer.step, cfg.time_budget_min)
    with progress_bars() as progress:
        bar = progress.add_task(clock.describe(trainer.step), total=cfg.steps, completed=trainer.step)
        live = progress.console.is_terminal  # a log file gets one line per phase instead of a redrawn bar

        def phase(name: str, step: int) -> None:
            progress.update(bar, description=clock.describe(step, name))
            if not live:
                progress.console.print(clock.describe(step, name))

        def report(step: int, m: dict) -> None:
            progress.update(bar, completed=step, description=clock.describe(step))
            progress.console.print(
                f"step {step}: reward {m.get('train/reward_mean', 0):.3f} resolved {m.get('train/resolved_rate', 0):.2f} "
                f"loss {m.get('loss', 0):.4f} clip {m.get('clip_fraction', 0):.3f} "
                f"entropy {m.get('entropy', 0):.2f} tokens/s {m.get('tokens_per_s', 0):.0f} "
                f"(rollout {m.get('rollout_s', 0):.0f}s, update {m.get('update_s', 0):.0f}s) "
                f"groups kept {m.get('sampling/kept', 0)}/{m.get('sampling/drawn', 0)}"
                + (f" stage {m['curriculum/next_stage']}" if "curriculum/next_stage" in m else "") + " · "
                + clock.describe(step).split(" · ", 1)[1])

        trainer.on_phase = phase
        try:
            trainer.train(progress=report)
        except (TermrlError, ValueError, OSError) as exc:
            fail(f"training stopped at step {trainer.step}: {exc} -- the finished steps are saved; "
                 "rerun the same command to resume")
        finally:
            trainer.close()


def _train_trl(cfg) -> None:
    try:
        import trl  # noqa: F401

        from termrl.integrations.trl_main import run
    except ImportError as exc:
        fail(f"--engine trl needs TRL ({exc}) -- install it: pip install -e '.[trl]'")
    try:
        metrics = run(cfg)
    except (TermrlError, ValueError) as exc:  # bad settings, no tasks, no Docker engine, no model
        fail(f"cannot start training: {exc}")
    console.print(f"TRL run done: {metrics.get('termrl/episodes', 0)} episodes on this process, "
                  f"{metrics.get('termrl/dropped_misaligned', 0)} misaligned and {metrics.get('termrl/dropped_error', 0)} "
                  f"with errors dropped from the loss; checkpoints and the final model in {cfg.out_dir}")
