"""Verifier time per episode without vs with the integrity step, side by side on the same tasks.

For each task and repeat, two containers are started from the task's image, the reference
solution runs in both, then one is verified with ``integrity=False`` (stop the agent's processes,
run the tests, read the results) and the other with the integrity step (diff against the image,
restore/remove, a second pass after the processes stop). Prints the median verifier time of
both, the ratio and the milliseconds added per episode, per task and overall; plus the one-off
cost of listing an image's toolchain (once per image and machine, at its first sandbox start).

Run: .venv/bin/python bench/verifier_integrity.py [--repeats 3] [TASK_DIR ...]
(default tasks: three of datasets/examples)
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from termrl.agent.reference import OracleAgent
from termrl.images.build import ImageConfig
from termrl.rewards.verifier import verify
from termrl.rollout.episode import EpisodeConfig, sandbox_spec
from termrl.sandbox import inventory as inv_mod
from termrl.sandbox.docker import DockerProvider
from termrl.tasks import load_task

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = [ROOT / "datasets/examples" / name for name in ("csv-region-summary", "fix-interval-merge",
                                                          "organize-files")]


def one(provider: DockerProvider, task, image: str, integrity: bool) -> tuple[float, float, float, list[str]]:
    box = provider.start(sandbox_spec(task, image, EpisodeConfig(), "oracle"))
    try:
        started = time.time()
        OracleAgent().run(task, box)
        t = time.perf_counter()
        result = verify(task, box, started_at=started, network=False, integrity=integrity)
        return time.perf_counter() - t, result.integrity_s, result.reward, result.tampered
    finally:
        box.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("tasks", nargs="*", type=Path)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    provider = DockerProvider()
    rows = []
    all_before, all_after = [], []
    for path in args.tasks or DEFAULT:
        task = load_task(path)
        image = provider.image_for(task, ImageConfig())
        # The one-off inventory (normally at the image's first sandbox start), timed on its own.
        config_env = provider.client.images.get(image).attrs["Config"].get("Env") or []
        path_env = dict(item.partition("=")[::2] for item in config_env).get("PATH", "")
        key = inv_mod.inventory_key(provider.client, image, path_env)
        t = time.perf_counter()
        inv_mod.store(key, inv_mod.parse_inventory(inv_mod._run_inventory(provider.client, image)))
        inventory_s = time.perf_counter() - t
        before, after, step = [], [], []
        for _ in range(args.repeats):
            b, _, rb, _ = one(provider, task, image, integrity=False)
            a, s, ra, tampered = one(provider, task, image, integrity=True)
            assert rb == ra == 1.0 and not tampered, (task.name, rb, ra, tampered)
            before.append(b)
            after.append(a)
            step.append(s)
        all_before += before
        all_after += after
        rows.append((task.name, statistics.median(before), statistics.median(after), statistics.median(step),
                     inventory_s))
    print(f"{'task':28s} {'verify w/o (ms)':>16s} {'verify with (ms)':>17s} {'ratio':>6s} {'added (ms)':>11s} "
          f"{'integrity step (ms)':>20s} {'inventory once (ms)':>20s}")
    for name, b, a, s, inv_s in rows:
        print(f"{name:28s} {b * 1000:16.0f} {a * 1000:17.0f} {a / b:6.2f} {(a - b) * 1000:11.0f} {s * 1000:20.1f} "
              f"{inv_s * 1000:20.0f}")
    b, a = statistics.median(all_before), statistics.median(all_after)
    print(f"{'all (median)':28s} {b * 1000:16.0f} {a * 1000:17.0f} {a / b:6.2f} {(a - b) * 1000:11.0f}")


if __name__ == "__main__":
    main()
