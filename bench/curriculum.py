"""Curriculum vs no curriculum on a mixed set, at the same budget, side by side.

The set: the easy-files family at difficulties 1-3 (1: the instruction names the command;
2: read /app/note.txt, then run the command it gives; 3: count a file's lines) -- a mix of a
task the untrained SmolLM2 sometimes solves and tasks it almost never does.

* ``uniform``: every step draws its tasks from the whole set.
* ``curriculum``: stages easy -> medium -> hard by difficulty label, promotion when the rolling
  training resolved rate of the stage reaches --promote-at over 3 steps, 25% replay.

Both arms start from the same model, train for the same number of steps (so the same number of
episodes; --minutes caps each arm's wall clock as well) with the CPU preset's settings, and are
evaluated on the same held-out instances (seeds disjoint from training) before and after.
Printed: both training curves and the held-out resolved rate per difficulty with the number of
episodes and the standard error of each figure.

Run: .venv/bin/python bench/curriculum.py [--steps 30] [--minutes 30] [--eval-k 2] [--out runs/curriculum-bench]
Resumable: rerunning with the same --out continues where it stopped.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import time
from pathlib import Path

from termrl.train.config import load_config
from termrl.train.trainer import Trainer

ARMS = {
    "uniform": {},
    "curriculum": {"curriculum.enabled": True, "curriculum.stages": ["easy", "medium", "hard"],
                   "curriculum.window": 3, "curriculum.replay": 0.25},
}


def held_out(trainer: Trainer) -> dict[str, dict[str, float]]:
    """Evaluate now; resolved rate, episodes and standard error, per difficulty and overall."""
    trainer.evaluate()
    return by_difficulty(trainer)


def by_difficulty(trainer: Trainer) -> dict[str, dict[str, float]]:
    """The evaluation at the trainer's current step (eval.jsonl), per difficulty (task name suffix) and overall."""
    rows = [json.loads(line) for line in (trainer.out / "eval.jsonl").read_text().splitlines()]
    rows = [r for r in rows if r.get("step") == trainer.step]
    out = {}
    for label in ("d1", "d2", "d3", "all"):
        mine = [r for r in rows if label == "all" or r["task"].endswith("-" + label)]
        n = len(mine)
        p = sum(bool(r["resolved"]) for r in mine) / n if n else 0.0
        out[label] = {"resolved": p, "episodes": n, "se": math.sqrt(p * (1 - p) / n) if n else 0.0}
    return out


def _fmt(cell: dict[str, float]) -> str:
    return f"{cell['resolved']:.3f} ± {cell['se']:.3f} (n={cell['episodes']})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="configs/cpu-smollm2.yaml")
    parser.add_argument("--steps", type=int, default=30, help="training steps per arm (the equal budget)")
    parser.add_argument("--minutes", type=float, default=30.0, help="wall-clock cap per arm")
    parser.add_argument("--eval-k", type=int, default=2, help="episodes per held-out task")
    parser.add_argument("--train-seeds", type=int, nargs=2, default=[0, 32])
    parser.add_argument("--eval-seeds", type=int, nargs=2, default=[1000, 1008])
    parser.add_argument("--promote-at", type=float, default=0.5)
    parser.add_argument("--out", default="runs/curriculum-bench")
    parser.add_argument("--set", action="append", default=[], help="KEY=VALUE config overrides (both arms)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    import yaml

    out = Path(args.out)
    common = {"eval_every": 0, "eval_group_size": args.eval_k, "steps": args.steps, "time_budget_min": args.minutes,
              "tasks.family": "easy-files", "tasks.difficulties": [1, 2, 3],
              "tasks.train_seeds": list(args.train_seeds), "tasks.eval_seeds": list(args.eval_seeds),
              "curriculum.promote_at": args.promote_at}
    common.update({k: yaml.safe_load(v) for k, v in (s.split("=", 1) for s in args.set)})
    results: dict[str, dict] = {}
    curves: dict[str, list[dict]] = {}
    before = None
    for arm, extra in ARMS.items():
        arm_out = out / arm
        done = arm_out / "after.json"
        trainer = Trainer(load_config(args.config, {**common, **extra, "out_dir": str(arm_out)}))
        try:
            if before is None:  # both arms start from the same weights: the same "before"
                before_file = out / "before.json"
                if not before_file.is_file():
                    print("[before] evaluating the untrained model on the held-out set ...", flush=True)
                    before_file.parent.mkdir(parents=True, exist_ok=True)
                    before_file.write_text(json.dumps(held_out(trainer)))
                before = json.loads(before_file.read_text())
            if not done.is_file():
                started = time.monotonic()

                def progress(step: int, m: dict, arm: str = arm) -> None:
                    print(f"[{arm}] step {step:3d} {time.monotonic() - started:6.0f}s  reward "
                          f"{m.get('train/reward_mean', 0):.3f}  resolved {m.get('train/resolved_rate', 0):.2f}  "
                          f"stage {m.get('curriculum/stage', '-')}", flush=True)

                trainer.train(progress=progress)
                from termrl.rollout.shutdown import STOP

                if STOP.requested:  # stopped: no "after" figure from a half-run evaluation; rerun to resume
                    raise SystemExit(f"stopped ({STOP.reason}); rerun the same command to resume")
                after = held_out(trainer)  # train() closed the pool: it now starts sandboxes on demand
                after["minutes"] = round((time.monotonic() - started) / 60, 1)
                after["steps"] = trainer.step
                done.write_text(json.dumps(after))
        finally:
            trainer.close()
        results[arm] = json.loads(done.read_text())
        curves[arm] = [m for m in (json.loads(line) for line in (arm_out / "metrics.jsonl").read_text().splitlines())
                       if "train/reward_mean" in m]

    print("\ntraining curves (per step: mean reward / resolved rate of that step's episodes; stage)")
    print(f"{'step':>5}  {'uniform':>16}  {'curriculum':>22}")
    for i in range(max(len(c) for c in curves.values())):
        cells = []
        for arm in ARMS:
            m = curves[arm][i] if i < len(curves[arm]) else None
            cell = "-" if m is None else f"{m['train/reward_mean']:.3f} / {m['train/resolved_rate']:.2f}"
            if arm == "curriculum" and m is not None:
                cell += f"  s{m.get('curriculum/stage', 0)}"
            cells.append(cell)
        print(f"{i + 1:>5}  {cells[0]:>16}  {cells[1]:>22}")
    promotions = [m["step"] for m in curves["curriculum"] if m.get("curriculum/promoted")]
    print(f"curriculum promotions at steps: {promotions or 'none'}")
    print("\nheld-out resolved rate ± standard error (episodes)")
    print(f"{'':<6}{'before':>28}{'uniform':>28}{'curriculum':>28}")
    for label in ("d1", "d2", "d3", "all"):
        print(f"{label:<6}{_fmt(before[label]):>28}{_fmt(results['uniform'][label]):>28}"
              f"{_fmt(results['curriculum'][label]):>28}")
    u, c = results["uniform"], results["curriculum"]
    print(f"\nbudget: uniform {u['steps']} steps in {u['minutes']} min, curriculum {c['steps']} steps in "
          f"{c['minutes']} min; curriculum - uniform on all held-out: "
          f"{100 * (c['all']['resolved'] - u['all']['resolved']):+.1f} points "
          f"(± {100 * math.hypot(c['all']['se'], u['all']['se']):.1f})")


if __name__ == "__main__":
    from termrl.rollout.shutdown import STOP

    with STOP.installed(30.0):  # SIGTERM/SIGINT: in-flight episodes recorded, sandboxes removed, resumable
        main()
