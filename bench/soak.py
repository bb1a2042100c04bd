"""Soak: episodes at full concurrency for N minutes while a fault injector breaks things.

Half the episodes are the oracle agent, half the termrl agent driven through an OpenAI-compatible
endpoint (a loopback stub that answers with each task's reference solution), on easy-files tasks,
in a private Docker engine (never the machine's main one). Meanwhile the injector

* `docker kill`s a random running sandbox every ``--kill-every`` seconds,
* restarts the engine once (at 35 % of the run; 3 s down),
* takes the policy endpoint down for ``--outage`` seconds (at 55 % of the run; default 60).

Rounds of ``tasks x group`` episodes run back to back until the time is up. At the end it prints:

* episodes completed (a row without error), and with an error, by boundary;
* episodes lost: scheduled but without a row (goal 0);
* leaked containers: termrl containers left in the engine (goal 0);
* wrong boundaries: rows no injected fault explains: an unresolved episode without an error (both
  agents solve every task, so a fault must have been recorded as the policy's failure), a ``sandbox``
  error with no kill of that task's container nor engine outage during the episode, a ``policy`` error
  outside the endpoint outage, any other boundary (goal 0).

Run: .venv/bin/python bench/soak.py --minutes 5 [--concurrency 4 --tasks 6 --group 2]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from termrl.agent.loop import AgentConfig, TermAgent
from termrl.agent.reference import OracleAgent
from termrl.policies.openai import OpenAIPolicy
from termrl.rollout.engine import RolloutEngine, TrajectoryStore
from termrl.rollout.episode import EpisodeConfig
from termrl.rollout.shutdown import STOP
from termrl.sandbox.docker import DockerProvider
from termrl.sandbox.reaper import LABEL
from termrl.tasks import load_task
from termrl.tasks.easy import generate_easy
from termrl.testing.faults import PrivateEngine, StubOpenAI


class TimedStore(TrajectoryStore):
    """Adds the wall time each row was written (to match it against the faults' windows)."""

    def append(self, row: dict) -> None:
        super().append({**row, "t_end": time.time()})


class Faults:
    def __init__(self, engine: PrivateEngine, stub: StubOpenAI, minutes: float, kill_every: float, outage: float):
        self.engine, self.stub = engine, stub
        self.total = minutes * 60
        self.kill_every, self.outage_s = kill_every, outage
        self.kills: list[tuple[float, str]] = []  # (time, task)
        self.engine_down: list[tuple[float, float]] = []
        self.policy_down: list[tuple[float, float]] = []
        self.done = threading.Event()
        self.log: list[str] = []

    def run(self) -> None:
        start = time.monotonic()
        restart_at, outage_at = 0.35 * self.total, 0.55 * self.total
        restarted = outaged = False
        next_kill = self.kill_every
        client = self.engine.client(timeout=30)
        while not self.done.wait(0.5):
            t = time.monotonic() - start
            if not restarted and t >= restart_at:
                restarted = True
                t0 = time.time()
                self.engine.restart(down_s=3.0)
                self.engine_down.append((t0, time.time()))
                self.log.append(f"{t:5.0f} s: engine restarted ({time.time() - t0:.1f} s down)")
                client = self.engine.client(timeout=30)
            if not outaged and t >= outage_at:
                outaged = True
                t0 = time.time()
                self.stub.down()
                self.log.append(f"{t:5.0f} s: policy endpoint down for {self.outage_s:.0f} s")
                self.done.wait(self.outage_s)
                self.stub.up()
                self.policy_down.append((t0, time.time()))
            if t >= next_kill:
                next_kill = t + self.kill_every * random.uniform(0.5, 1.5)
                try:
                    running = client.containers.list(ignore_removed=True, filters={"label": LABEL, "status": "running"})
                    if running:
                        victim = random.choice(running)
                        self.kills.append((time.time(), victim.labels.get("termrl.task", "")))
                        victim.kill()
                        self.log.append(f"{t:5.0f} s: killed a sandbox of {victim.labels.get('termrl.task')}")
                except Exception as exc:  # the engine may be restarting: the next kill comes later
                    self.log.append(f"{t:5.0f} s: kill skipped ({type(exc).__name__})")
        client.close()


def explained(row: dict, faults: Faults, slack: float = 2.0) -> bool:
    """Whether the row's outcome is right: resolved, or failed at the boundary of a fault that hit it."""
    error = row.get("error")
    if not error:
        return bool(row["resolved"])  # every task here is solved by both agents: a failure needs a fault
    end = row["t_end"]
    begin = end - row["duration_s"] - slack
    overlaps = lambda windows: any(a <= end and b >= begin for a, b in windows)  # noqa: E731
    if error["boundary"] == "sandbox":
        return overlaps(faults.engine_down) or any(begin <= t <= end and task == row["task"]
                                                   for t, task in faults.kills)
    if error["boundary"] == "policy":
        return row["agent"] == "termrl" and overlaps(faults.policy_down)
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--concurrency", type=int, default=4, help="episodes at once (half per agent)")
    parser.add_argument("--tasks", type=int, default=6, help="easy-files instances (difficulties 1-3)")
    parser.add_argument("--group", type=int, default=2, help="episodes per task and agent per round")
    parser.add_argument("--kill-every", type=float, default=12.0, help="mean seconds between container kills")
    parser.add_argument("--outage", type=float, default=60.0, help="seconds the policy endpoint is down")
    parser.add_argument("--keep", action="store_true", help="keep the rows and tasks (printed path)")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="termrl-soak-"))
    tasks = [load_task(generate_easy(i, 1 + i % 3, work / "tasks")) for i in range(args.tasks)]
    solutions = {t.instruction.strip(): (t.path / "solution" / "solve.sh").read_text().replace("#!/bin/bash\n", "")
                 .strip() for t in tasks}

    def reply(messages: list[dict]) -> str:
        if any(m.get("role") == "assistant" for m in messages):
            return "<finish></finish>"  # the solution ran: done
        instruction = next((m["content"] for m in messages if m.get("role") == "user"), "")
        script = next((s for i, s in solutions.items() if i in instruction), "true")
        return f"<bash>sleep 1; {script}</bash>"

    engine = PrivateEngine(f"termrl-soak-{int(time.time())}")
    print(f"starting a private Docker engine at {engine.url} and copying termrl/base:bookworm into it ...",
          file=sys.stderr)
    engine.start()
    stub = StubOpenAI(reply)
    try:
        engine.load_image("termrl/base:bookworm")
        client = engine.client()
        provider = DockerProvider(client, engine_retry_s=120)
        policy = OpenAIPolicy(base_url=stub.base_url, api_key="", model="stub", backoff_s=0.5, max_backoff_s=4,
                              max_retries=6, max_retry_time_s=15)
        config = EpisodeConfig(verifier_network=False)
        for t in tasks:  # build the images before the clock starts
            provider.image_for(t, config.image_config)
        store = TimedStore(work / "rollouts.jsonl")
        agent_config = AgentConfig(action_format="xml", max_turns=3)
        engines = {
            "oracle": RolloutEngine(provider, OracleAgent, store=store, episode_config=config,
                                    max_concurrency=max(1, args.concurrency // 2)),
            "termrl": RolloutEngine(provider, lambda: TermAgent(policy, agent_config), store=store,
                                    episode_config=config, max_concurrency=max(1, args.concurrency // 2)),
        }
        faults = Faults(engine, stub, args.minutes, args.kill_every, args.outage)
        injector = threading.Thread(target=faults.run, daemon=True)
        STOP.reset()
        start = time.monotonic()
        injector.start()
        expected: set[str] = set()
        rounds = 0
        while time.monotonic() - start < args.minutes * 60 and not STOP.requested:
            # Both agents at once: one round = every task x group for each, in one event loop each.
            threads = []
            for name, eng in engines.items():
                step = rounds * 2 + (name == "termrl")
                expected |= {store.key(step, t.name, i) for t in tasks for i in range(args.group)}
                threads.append(threading.Thread(target=eng.run, args=(tasks, args.group, step)))
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            rounds += 1
        faults.done.set()
        injector.join(120)
        provider.close()
        elapsed = time.monotonic() - start
        rows = {r["key"]: r for r in store.rows()}
        leaked = client.containers.list(all=True, ignore_removed=True, filters={"label": LABEL})
        errors = Counter(r["error"]["boundary"] for r in rows.values() if r.get("error"))
        completed = sum(1 for r in rows.values() if not r.get("error"))
        wrong = [r for r in rows.values() if not explained(r, faults)]
        lost = expected - set(rows)
        duplicates = len(store.rows()) - len(rows)
        if args.keep:
            print(f"rows: {store.path}", file=sys.stderr)
        for line in faults.log:
            print(f"fault {line}", file=sys.stderr)
        print(f"soak: {elapsed / 60:.1f} min, {rounds} rounds, concurrency {args.concurrency}, "
              f"{len(tasks)} tasks x {args.group} x 2 agents per round")
        print(f"faults: {len(faults.kills)} containers killed, engine restarted {len(faults.engine_down)}x, "
              f"policy endpoint down {sum(b - a for a, b in faults.policy_down):.0f} s "
              f"({stub.requests} policy requests reached it)")
        print(f"episodes completed: {completed}  (resolved {sum(bool(r['resolved']) for r in rows.values())})")
        print(f"episodes with an error: {sum(errors.values())}  {dict(errors)}")
        print(f"episodes lost: {len(lost)}  (goal 0)")
        print(f"rows written twice: {duplicates}  (goal 0)")
        print(f"leaked containers: {len(leaked)}  (goal 0)")
        print(f"rows with a wrong error boundary: {len(wrong)}  (goal 0)")
        for r in wrong[:5]:
            print("  wrong:", json.dumps({k: r.get(k) for k in ("key", "agent", "error", "duration_s")})[:300])
        client.close()
    finally:
        stub.close()
        engine.close()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
