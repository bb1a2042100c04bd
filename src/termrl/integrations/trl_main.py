"""Train with TRL's GRPOTrainer from a termrl config: the module ``accelerate launch`` starts.

    accelerate launch --config_file configs/accelerate/8gpu-zero3.yaml \\
        -m termrl.integrations.trl_main --config configs/trl-8gpu-qwen3-8b.yaml [--set KEY=VALUE ...]

One process (``termrl train --engine trl --config ...``) runs the same code. Every process runs its
own slice of each step's episodes (``termrl.integrations.trl``); checkpoints are TRL's
(``OUT/checkpoint-N``), and rerunning the same command resumes from the latest one.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from termrl.train.config import TrainConfig, load_config

log = logging.getLogger(__name__)


def latest_checkpoint(out_dir: str | Path) -> str | None:
    """TRL's newest ``checkpoint-N`` folder under ``out_dir``, if any."""
    found = [p for p in Path(out_dir).glob("checkpoint-*") if p.is_dir() and p.name.split("-")[-1].isdigit()]
    return str(max(found, key=lambda p: int(p.name.split("-")[-1]))) if found else None


def run(config: TrainConfig) -> dict[str, float]:
    """Train; returns TRL's final train metrics. Closes the sandboxes whatever happens."""
    from termrl.integrations.trl import build_trainer

    trainer, rollout = build_trainer(config)
    try:
        result = trainer.train(resume_from_checkpoint=latest_checkpoint(config.out_dir))
        trainer.save_model(str(Path(config.out_dir) / "final"))
        totals = dict(rollout.totals)
        log.info("episodes on this process: %s", totals)
        return {**result.metrics, **{f"termrl/{k}": v for k, v in totals.items()}}
    finally:
        rollout.close()


def _overrides(sets: list[str]) -> dict[str, object]:
    import yaml

    out = {}
    for item in sets:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--set {item!r}: expected KEY=VALUE (dotted keys, e.g. grpo.group_size=4)")
        out[key.strip()] = yaml.safe_load(value)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m termrl.integrations.trl_main", description=__doc__.split("\n")[0])
    parser.add_argument("--config", "-c", required=True, help="termrl YAML config (with an optional trl: section)")
    parser.add_argument("--set", dest="sets", action="append", default=[], help="override a setting: KEY=VALUE")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s", stream=sys.stderr)
    try:
        config = load_config(args.config, _overrides(args.sets))
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from exc
    metrics = run(config)
    print({k: v for k, v in metrics.items() if isinstance(v, (int, float))})


if __name__ == "__main__":
    main()
