"""Scale on one host (issue 11 §3): many live sandboxes at once, and oracle throughput vs a Harbor-style flow.

Part 1 -- N live sandboxes (default 64): time to start all N (8 starts in flight), memory per idle
sandbox (the host's MemAvailable drop over N, which includes the engine's per-container shim, and
the containers' own cgroup usage), command p50 / p95 (``echo hi`` through the persistent shell, every
sandbox in turn) while all N are live, and the number of errors.

Part 2 -- oracle episodes per minute on the same easy-files tasks at the same concurrency:
* termrl: the rollout engine (warm pool, persistent shell, tests uploaded through the Docker API,
  the full verifier with its integrity checks, the rubric judge);
* Harbor-style: per episode ``docker run -d``, ``docker cp`` the solution in, ``docker exec`` per
  command, ``docker cp`` the tests in, ``docker exec`` the test script, read the reward, ``docker rm -f``
  (the docker CLI, as Harbor's docker environment drives it; no compose project, which would only
  add to its time).
Prints both rates and the ratio. Then the same with --commands (default 30) inspection commands before
the solution in every episode, as an agent's episode has: through termrl's persistent shell, or one
``docker exec`` each. Absolute times depend on the machine and its load; the ratios are the figures.

Run: PYTHONPATH=src .venv/bin/python bench/scale.py [--n 64] [--episodes 24] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from termrl.agent.reference import OracleAgent
from termrl.images.build import ImageConfig
from termrl.rollout.engine import RolloutEngine, TrajectoryStore
from termrl.rollout.episode import EpisodeConfig
from termrl.sandbox.base import SandboxSpec
from termrl.sandbox.docker import DockerProvider
from termrl.sandbox.pool import PooledProvider
from termrl.tasks import load_task
from termrl.tasks.easy import generate_easy


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def mem_available_mb() -> float:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no MemAvailable in /proc/meminfo")


def live_sandboxes(provider: DockerProvider, n: int, image: str) -> None:
    spec = SandboxSpec(image=image, cpus=0.5, memory_mb=256, labels=(("termrl.bench", "scale"),))
    before = mem_available_mb()
    boxes, errors = [], []

    def start():
        try:
            return provider.start(spec)
        except Exception as exc:  # counted and printed: the figure is "with no errors"
            errors.append(f"{type(exc).__name__}: {exc}")
            return None

    t0 = time.perf_counter()
    with ThreadPoolExecutor(8) as pool:
        boxes = [b for b in pool.map(lambda _: start(), range(n)) if b is not None]
    start_s = time.perf_counter() - t0
    try:
        time.sleep(3.0)  # settle
        after = mem_available_mb()
        cgroup = []
        for box in boxes[:4]:
            stats = box.container.stats(stream=False)
            cgroup.append(stats["memory_stats"].get("usage", 0) / 2**20)
        latencies = []
        for _ in range(3):
            for box in boxes:
                t = time.perf_counter()
                out = box.exec("echo hi").output
                latencies.append(time.perf_counter() - t)
                if out != "hi\n":
                    errors.append(f"unexpected output {out!r}")
    finally:
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda b: b.close(), boxes))
    ms = [v * 1000 for v in latencies]
    print(f"live sandboxes: {len(boxes)}/{n} started, errors: {len(errors)}" + (f" (first: {errors[0]})" if errors
                                                                              else ""))
    print(f"  time to start all {n} (8 in flight): {start_s:.1f} s ({start_s / n * 1000:.0f} ms per sandbox)")
    print(f"  memory per idle sandbox: host MemAvailable drop {(before - after) / max(1, len(boxes)):.1f} MB "
          f"(engine shim included); container cgroup usage {statistics.mean(cgroup or [0]):.1f} MB")
    print(f"  command round trip while all {len(boxes)} are live: p50 {percentile(ms, .5):.2f} ms, "
          f"p95 {percentile(ms, .95):.2f} ms over {len(ms)} commands")


def sh(*argv: str, input: bytes | None = None) -> str:
    out = subprocess.run(argv, input=input, capture_output=True, check=True)
    return out.stdout.decode()


# What an agent does before it acts: look around (the commands of a long-horizon episode, minus the model).
LOOK = ["ls -la /app", "pwd", "cat /etc/os-release | head -3", "ls /app | wc -l", "echo $HOME", "whoami",
        "find /app -maxdepth 2 | head -20", "df -h / | tail -1", "env | wc -l", "uname -a"]


def look_commands(k: int) -> list[str]:
    return [LOOK[i % len(LOOK)] for i in range(k)]


class LookThenOracle(OracleAgent):
    """``commands`` inspection commands through the persistent shell, then the reference solution."""

    def __init__(self, commands: int):
        super().__init__()
        self.commands = commands

    def run(self, task, sandbox):
        for command in look_commands(self.commands):
            sandbox.exec(command, timeout=60)
        return super().run(task, sandbox)


def harbor_episode(task, image: str, tag: str, commands: int = 0) -> bool:
    """One oracle episode the Harbor way: a fresh container, docker exec per command, tests copied in, removed.

    ``commands``: inspection commands first, one ``docker exec`` each (Harbor's terminal agent spends two
    per command -- tmux send-keys, then capture-pane -- so this is the cheaper side of it)."""
    env = task.environment
    cid = sh("docker", "run", "-d", "--init", "--network", "none", f"--memory={env.memory_mb}m",
             f"--cpus={env.cpus}", "--label", f"termrl.bench={tag}", image, "sleep", "infinity").strip()
    try:
        for command in look_commands(commands):
            subprocess.run(["docker", "exec", cid, "bash", "-c", command], capture_output=True)
        sh("docker", "cp", f"{task.solution_dir}/.", f"{cid}:/solution")
        sh("docker", "exec", cid, "bash", "/solution/solve.sh")
        sh("docker", "cp", f"{task.tests_dir}/.", f"{cid}:/tests")
        subprocess.run(["docker", "exec", cid, "bash", "/tests/test.sh"], capture_output=True)
        return sh("docker", "exec", cid, "cat", "/logs/verifier/reward.txt").strip() == "1"
    finally:
        subprocess.run(["docker", "rm", "-f", cid], capture_output=True)


def throughput(provider: DockerProvider, episodes: int, concurrency: int, workdir: Path, commands: int = 0) -> None:
    tasks = [load_task(generate_easy(seed, 1, workdir)) for seed in range(4)]
    before = {tag for image in provider.client.images.list() for tag in image.tags}
    images = {t.name: provider.image_for(t, ImageConfig()) for t in tasks}  # built once, used by both flows
    group = max(1, episodes // len(tasks))
    samples = [t for t in tasks for _ in range(group)]
    tag = uuid.uuid4().hex[:8]

    t0 = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        harbor_ok = sum(pool.map(lambda t: harbor_episode(t, images[t.name], tag, commands), samples))
    harbor_s = time.perf_counter() - t0

    pooled = PooledProvider(provider, size=min(concurrency, 8))
    try:
        engine = RolloutEngine(pooled, (lambda: LookThenOracle(commands)) if commands else OracleAgent, store=TrajectoryStore(workdir / f"rollouts-{tag}.jsonl"),
                               max_concurrency=concurrency, episode_config=EpisodeConfig(verifier_network=False))
        t0 = time.perf_counter()
        rollout = engine.run(tasks, group_size=group)
        termrl_s = time.perf_counter() - t0
    finally:
        pooled.close()
    termrl_ok = sum(r.resolved for rows in rollout.groups.values() for r in rows)
    n = len(samples)
    h_rate, t_rate = n / harbor_s * 60, n / termrl_s * 60
    what = f"{commands} inspection commands + oracle" if commands else "oracle"
    print(f"{what} throughput, {n} episodes of {len(tasks)} easy-files tasks, concurrency {concurrency}:")
    print(f"  termrl rollout engine: {t_rate:6.1f} episodes/min ({termrl_s:.1f} s, {termrl_ok}/{n} resolved)")
    print(f"  Harbor-style flow:     {h_rate:6.1f} episodes/min ({harbor_s:.1f} s, {harbor_ok}/{n} resolved)")
    print(f"  ratio termrl / Harbor-style: {t_rate / h_rate:.2f}x")
    for image in set(images.values()) - before:  # the task images this run built (not ones others use)
        subprocess.run(["docker", "rmi", image], capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=64, help="live sandboxes at once")
    parser.add_argument("--episodes", type=int, default=24, help="oracle episodes per flow")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--image", default="termrl/base:bookworm")
    parser.add_argument("--skip-live", action="store_true")
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--commands", type=int, default=30,
                        help="inspection commands per episode in the second throughput comparison (0: skip it)")
    args = parser.parse_args()
    provider = DockerProvider()
    try:
        load = Path("/proc/loadavg").read_text().split()[:3]
        print(f"machine load average (1/5/15 min): {' '.join(load)}")
        if not args.skip_live:
            live_sandboxes(provider, args.n, args.image)
        if not args.skip_throughput:
            with tempfile.TemporaryDirectory(prefix="termrl-scale-") as tmp:
                throughput(provider, args.episodes, args.concurrency, Path(tmp))
                if args.commands:  # an agent's episode: many commands, then the work
                    throughput(provider, args.episodes, args.concurrency, Path(tmp), args.commands)
    finally:
        provider.close()


if __name__ == "__main__":
    main()
