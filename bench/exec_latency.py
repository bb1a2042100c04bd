"""Round trip of a trivial command: termrl's persistent shell vs a fresh `docker exec`, same container.

Prints p50 / p95 for both and the ratio (absolute times vary across machines; the ratio is the figure).
Run: .venv/bin/python bench/exec_latency.py [--n 500]
"""

from __future__ import annotations

import argparse
import statistics
import time

from termrl.sandbox.base import SandboxSpec
from termrl.sandbox.docker import DockerProvider


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=500, help="round trips per method")
    parser.add_argument("--image", default="termrl/base:bookworm")
    args = parser.parse_args()

    provider = DockerProvider()
    with provider.start(SandboxSpec(image=args.image)) as box:
        for _ in range(20):  # warm up both paths
            box.exec("echo hi")
            box.container.exec_run(["echo", "hi"])
        shell, fresh = [], []
        # Interleave so that machine noise hits both methods alike.
        for i in range(args.n):
            t = time.perf_counter()
            out = box.exec("echo hi").output
            shell.append(time.perf_counter() - t)
            assert out == "hi\n"
            if i % 5 == 0:  # a fresh exec is ~100x slower: sample it less often
                t = time.perf_counter()
                res = box.container.exec_run(["echo", "hi"])
                fresh.append(time.perf_counter() - t)
                assert res.output == b"hi\n"
    rows = [("termrl persistent shell", shell), ("fresh docker exec", fresh)]
    print(f"{'method':<26}{'n':>6}{'p50 ms':>10}{'p95 ms':>10}{'mean ms':>10}")
    for name, values in rows:
        ms = [v * 1000 for v in values]
        print(f"{name:<26}{len(ms):>6}{percentile(ms, .5):>10.3f}{percentile(ms, .95):>10.3f}"
              f"{statistics.mean(ms):>10.3f}")
    ratio50 = percentile(fresh, .5) / percentile(shell, .5)
    ratio95 = percentile(fresh, .95) / percentile(shell, .95)
    print(f"ratio (fresh exec / persistent shell): p50 {ratio50:.0f}x, p95 {ratio95:.0f}x")


if __name__ == "__main__":
    main()
