"""One episode: image -> container -> agent phase -> verifier -> result. Never raises for a bad episode."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from termrl.errors import TermrlError
from termrl.images.build import ImageConfig
from termrl.rewards.verifier import verify
from termrl.sandbox.base import SandboxProvider, SandboxSpec
from termrl.types import AgentOutcome, EpisodeError, EpisodeResult, Task, VerifierResult


@dataclass
class EpisodeConfig:
    """Settings shared by every episode of a run."""

    verifier_network: bool = True
    """Give the verifier phase network access (Terminal-Bench 2 test scripts install tooling with uvx)."""
    image_config: ImageConfig = field(default_factory=ImageConfig)
    output_cap: int = 32_000
    """Bytes of each command's output kept (head and tail)."""


def _network_for_agent(task: Task) -> bool:
    return task.environment.allow_internet


def run_episode(task: Task, agent, provider: SandboxProvider, config: EpisodeConfig | None = None) -> EpisodeResult:
    """Run ``agent`` on ``task`` in a fresh sandbox and verify the outcome.

    Every failure at a boundary (image build, sandbox, agent/policy, verifier) is caught once,
    here, and recorded as ``error={boundary, message}``; the episode then scores 0 and the run
    goes on. Limits hit by the agent are ``truncated``, not errors: the tests still run.
    """
    config = config or EpisodeConfig()
    start = time.monotonic()
    outcome = AgentOutcome(terminated=False, truncated=False)
    verifier: VerifierResult | None = None
    error: EpisodeError | None = None
    sandbox = None
    try:
        image = provider.image_for(task, config.image_config)
        env = task.environment
        sandbox = provider.start(SandboxSpec(
            image=image, cpus=env.cpus, memory_mb=env.memory_mb, pids_limit=env.pids_limit,
            network=_network_for_agent(task), workdir=env.workdir, output_cap=config.output_cap,
            labels=(("termrl.task", task.name), ("termrl.agent", getattr(agent, "name", "agent"))),
        ))
        started_at = time.time()
        outcome = agent.run(task, sandbox)
        verifier = verify(task, sandbox, started_at=started_at, network=config.verifier_network)
    except TermrlError as exc:
        error = EpisodeError(exc.boundary, str(exc))
    finally:
        if sandbox is not None:
            sandbox.close()
    reward = verifier.reward if verifier and error is None else 0.0
    tests = verifier.tests if verifier else {}
    resolved = error is None and reward >= 1.0 and all(tests.values())
    return EpisodeResult(
        task=task.name,
        agent=getattr(agent, "name", type(agent).__name__),
        reward=reward,
        resolved=resolved,
        tests=tests,
        terminated=outcome.terminated,
        truncated=outcome.truncated,
        error=error,
        duration_s=time.monotonic() - start,
        verifier=verifier,
    )


class EpisodeLog:
    """Appends one JSON row per finished episode, flushed at once: a crash loses nothing."""

    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def append(self, row: dict) -> None:
        line = json.dumps(row, sort_keys=False)
        with self._lock, open(self.path, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
            fh.flush()
