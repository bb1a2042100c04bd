"""Does GRPO training make the embedded SmolLM2 better at held-out tasks? Before / after / delta.

1. Evaluate the untrained model on held-out instances of the easy-files family (seeds disjoint
   from training): resolved rate and mean reward, with the number of episodes behind each.
2. Train with the CPU preset (configs/cpu-smollm2.yaml) for at most --minutes.
3. Evaluate again on the same held-out instances; print before / after / delta and the reward curve.

Run: .venv/bin/python bench/learning.py [--minutes 60] [--eval-k 4] [--out runs/learning] [--difficulty 2]
``--difficulty 2`` is the family's level that needs two actions and the use of an observation (read
/app/note.txt, then run the command it gives); 1 (the preset's) names the command.
``--difficulties 1 2 --curriculum`` trains on both levels, staged easy -> medium (promotion when the
rolling training resolved rate reaches --promote-at, 25% replay), and evaluates both: the held-out
figures are printed per level, so level 2's before/after is the observation-using skill.
Resumable: rerunning with the same --out continues the training where it stopped.

Measured (2026-12-01, 2 CPU cores): ``--difficulties 1 2 --curriculum --promote-at 0.4 --minutes 60
--eval-k 2``: promoted at step 5, 14 steps in 60 min; held-out level 2 (read the note, then act on it)
0.000 (0/32) -> 0.875 ± 0.058 (28/32), level 1 0.156 -> 0.938 (32 each).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import time
from pathlib import Path

from curriculum import _fmt, by_difficulty  # bench/curriculum.py (this folder is on sys.path)

from termrl.train.config import load_config
from termrl.train.trainer import Trainer


def _eval(trainer: Trainer, label: str) -> dict:
    started = time.monotonic()
    summary = trainer.evaluate()
    summary["seconds"] = round(time.monotonic() - started, 1)
    n = summary.get("eval/episodes", 0)
    p = summary.get("eval/resolved_rate", 0.0)
    summary["eval/resolved_se"] = math.sqrt(p * (1 - p) / n) if n else 0.0
    summary["by_difficulty"] = by_difficulty(trainer)
    print(f"[{label}] held-out: resolved {p:.3f} ± {summary['eval/resolved_se']:.3f}, "
          f"reward {summary.get('eval/reward_mean', 0):.3f} over {summary.get('eval/episodes', 0)} episodes", flush=True)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="configs/cpu-smollm2.yaml")
    parser.add_argument("--minutes", type=float, default=60.0, help="training time budget")
    parser.add_argument("--eval-k", type=int, default=4, help="episodes per held-out task")
    parser.add_argument("--out", default="runs/learning")
    parser.add_argument("--difficulty", type=int, choices=(1, 2, 3), default=None,
                        help="easy-files level (default: the config's)")
    parser.add_argument("--difficulties", type=int, nargs="+", choices=(1, 2, 3), default=None,
                        help="several easy-files levels at once (training and held-out)")
    parser.add_argument("--curriculum", action="store_true", help="stage the levels easy -> medium -> hard")
    parser.add_argument("--promote-at", type=float, default=0.5, help="rolling resolved rate that promotes")
    parser.add_argument("--set", action="append", default=[], help="KEY=VALUE config overrides")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    import yaml

    overrides = {"out_dir": args.out, "time_budget_min": args.minutes, "eval_every": 0,
                 "eval_group_size": args.eval_k, "steps": 10_000}
    if args.difficulty:
        overrides["tasks.difficulty"] = args.difficulty
    if args.difficulties:
        overrides["tasks.difficulties"] = sorted(set(args.difficulties))
    if args.curriculum:
        from termrl.tasks.easy import LABELS

        levels = sorted(set(args.difficulties or [args.difficulty or 1]))
        overrides.update({"curriculum.enabled": True, "curriculum.stages": [LABELS[d] for d in levels],
                          "curriculum.window": 3, "curriculum.replay": 0.25, "curriculum.promote_at": args.promote_at})
    overrides.update({k: yaml.safe_load(v) for k, v in (s.split("=", 1) for s in args.set)})
    config = load_config(args.config, overrides)
    trainer = Trainer(config)
    out = Path(args.out)
    before_file = out / "before.json"
    if before_file.is_file():
        before = json.loads(before_file.read_text())
    else:
        before = _eval(trainer, "before")
        before_file.write_text(json.dumps(before))
    started = time.monotonic()

    def progress(step: int, m: dict) -> None:
        print(f"step {step:3d}  {time.monotonic() - started:6.0f}s  reward {m.get('train/reward_mean', 0):.3f}  "
              f"resolved {m.get('train/resolved_rate', 0):.2f}  loss {m.get('loss', 0):+.4f}  "
              f"skipped {m.get('groups_skipped_zero_variance', 0)}  stage {m.get('curriculum/stage', '-')}", flush=True)

    trainer.config.eval_every = 0
    trainer.train(progress=progress)
    from termrl.rollout.shutdown import STOP

    if STOP.requested:  # stopped: no "after" figure from a half-run evaluation; rerun to resume
        trainer.close()
        raise SystemExit(f"stopped ({STOP.reason}); rerun the same command to resume")
    after = _eval(trainer, "after")  # train() closed the pool: it now starts sandboxes on demand
    trainer.close()

    curve = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    train_rows = [m for m in curve if "train/reward_mean" in m]
    n_train = sum(m.get("train/episodes", 0) for m in train_rows)
    print("\nreward curve (training episodes, per step):")
    for m in train_rows:
        bar = "#" * int(round(40 * m["train/reward_mean"]))
        stage = f"  stage {m['curriculum/stage']}" if "curriculum/stage" in m else ""
        print(f"  step {m['step']:3d}  reward {m['train/reward_mean']:.3f}  resolved {m['train/resolved_rate']:.2f}"
              f"{stage}  {bar}")
    b, a = before.get("eval/resolved_rate", 0.0), after.get("eval/resolved_rate", 0.0)
    if len({k for s in (before, after) for k, v in s.get("by_difficulty", {}).items() if v["episodes"]}) > 2:
        print("\nheld-out resolved rate ± standard error (episodes), per level")
        for level in ("d1", "d2", "d3"):
            cells = [s.get("by_difficulty", {}).get(level) for s in (before, after)]
            if all(c and c["episodes"] for c in cells):
                delta = 100 * (cells[1]["resolved"] - cells[0]["resolved"])
                print(f"  {level}  before {_fmt(cells[0])}   after {_fmt(cells[1])}   delta {delta:+.1f} ± "
                      f"{100 * math.hypot(cells[0]['se'], cells[1]['se']):.1f} points")
    print(f"\n{'':<10}{'resolved':>10}{'± s.e.':>8}{'reward':>10}{'episodes':>10}")
    for label, s in (("before", before), ("after", after)):
        p, n = s.get("eval/resolved_rate", 0.0), s.get("eval/episodes", 0)
        se = math.sqrt(p * (1 - p) / n) if n else 0.0
        print(f"{label:<10}{p:>10.3f}{se:>8.3f}{s.get('eval/reward_mean', 0):>10.3f}{n:>10}")
    se_delta = math.hypot(*(math.sqrt(x.get("eval/resolved_rate", 0) * (1 - x.get("eval/resolved_rate", 0))
                                      / max(x.get("eval/episodes", 0), 1)) for x in (before, after)))
    print(f"delta: {100 * (a - b):+.1f} ± {100 * se_delta:.1f} points resolved, "
          f"{after.get('eval/reward_mean', 0) - before.get('eval/reward_mean', 0):+.3f} reward; "
          f"{len(train_rows)} training steps, {n_train} training episodes, "
          f"{(time.monotonic() - started) / 60:.1f} min")


if __name__ == "__main__":
    from termrl.rollout.shutdown import STOP

    with STOP.installed(30.0):  # SIGTERM/SIGINT: in-flight episodes recorded, sandboxes removed, resumable
        main()
