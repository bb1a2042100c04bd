"""Time to an episode's first command: warm pool vs cold container start (same image, same limits).

Prints p50 / p95 of both and the ratio. Run: .venv/bin/python bench/warm_pool.py [--n 20]
"""

from __future__ import annotations

import argparse
import time

from termrl.sandbox.base import SandboxSpec
from termrl.sandbox.docker import DockerProvider
from termrl.sandbox.pool import PooledProvider


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def first_command(provider, spec: SandboxSpec) -> float:
    t = time.perf_counter()
    box = provider.start(spec)
    assert box.exec("echo ready").output == "ready\n"
    elapsed = time.perf_counter() - t
    box.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--image", default="termrl/base:bookworm")
    args = parser.parse_args()
    spec = SandboxSpec(image=args.image, memory_mb=512)
    cold_provider = DockerProvider()
    cold, warm = [], []
    with PooledProvider(DockerProvider(), size=2) as pool:
        pool.warm(spec)
        for _ in range(args.n):
            cold.append(first_command(cold_provider, spec))
            time.sleep(0.5)  # an episode's length, during which the pool refills
            warm.append(first_command(pool, spec))
        hits = pool.hits
    print(f"{'method':<12}{'n':>4}{'p50 ms':>10}{'p95 ms':>10}")
    for name, values in (("cold start", cold), ("warm pool", warm)):
        print(f"{name:<12}{len(values):>4}{pct(values, .5) * 1000:>10.1f}{pct(values, .95) * 1000:>10.1f}")
    print(f"pool hits {hits}/{args.n}; ratio (cold / warm): p50 {pct(cold, .5) / pct(warm, .5):.0f}x, "
          f"p95 {pct(cold, .95) / pct(warm, .95):.0f}x")


if __name__ == "__main__":
    main()
