"""One episode: image -> container -> agent phase -> verifier -> result. Never raises for a bad episode."""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from termrl.errors import Interrupted, StorageError, TermrlError
from termrl.images.build import ImageConfig
from termrl.rewards.base import Judge
from termrl.rewards.scoring import episode_reward, task_test_weights
from termrl.rewards.verifier import verify
from termrl.rollout.shutdown import STOP
from termrl.sandbox.base import SandboxProvider, SandboxSpec
from termrl.tasks.records import nop_passing_tests
from termrl.types import AgentOutcome, EpisodeError, EpisodeResult, RewardWeights, Task, VerifierResult, episode_to_row


@dataclass
class EpisodeConfig:
    """Settings shared by every episode of a run."""

    verifier_network: bool = True
    """Give the verifier phase network access (Terminal-Bench 2 test scripts install tooling with uvx)."""
    image_config: ImageConfig = field(default_factory=ImageConfig)
    output_cap: int = 32_000
    """Bytes of each command's output kept (head and tail)."""
    judge: Judge | None = None
    """A Judge (termrl.rewards.base) scoring how the agent worked; None = tests only.
    Reference agents (oracle, nop) leave no trajectory, so only their tests count."""
    weights: RewardWeights = field(default_factory=RewardWeights)
    """reward = test x weights.test + judge x weights.judge (renormalised when the judge fails)."""


def sandbox_spec(task: Task, image: str, config: EpisodeConfig, agent_name: str = "agent") -> SandboxSpec:
    """The container an episode of ``task`` runs in: its image, limits and agent-phase network."""
    env = task.environment
    return SandboxSpec(
        image=image, cpus=env.cpus, memory_mb=env.memory_mb, pids_limit=env.pids_limit,
        network=env.allow_internet, workdir=env.workdir, output_cap=config.output_cap,
        labels=(("termrl.task", task.name), ("termrl.agent", agent_name)),
    )


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
    host = None
    own_fatal = False
    try:
        image = provider.image_for(task, config.image_config)
        sandbox = provider.start(sandbox_spec(task, image, config, getattr(agent, "name", "agent")))
        STOP.track(sandbox)  # a stop request closes it at once: the episode ends as interrupted
        host = getattr(getattr(sandbox, "host", None), "url", None)  # which engine, over several hosts
        started_at = time.time()
        outcome = agent.run(task, sandbox)
        error = outcome.error  # the agent broke mid-way (policy, sandbox): no verdict
        if error is None:
            verifier = verify(task, sandbox, started_at=started_at, network=config.verifier_network)
    except TermrlError as exc:
        error = EpisodeError(exc.boundary, str(exc))
        if exc.fatal:  # the whole run cannot go on (engine gone, disk full): stop it, resumably
            own_fatal = True
            STOP.request(str(exc), fatal=True)
    except Exception:
        if not STOP.requested:
            raise
        # The sandbox was closed under the agent by a stop: whatever broke, it is the interruption.
    finally:
        if sandbox is not None:
            STOP.untrack(sandbox)
            sandbox.close()
    stopped = STOP.requested and not own_fatal and (error is not None or verifier is None)
    if stopped:
        # Whatever failed after the stop (the closed sandbox, a cancelled wait) failed because of it.
        error = EpisodeError(Interrupted.boundary, f"{STOP.reason}: the episode was stopped before it finished; "
                             "a resumed run runs it again")
        STOP.interrupted_episodes += 1
    trajectory = outcome.trajectory
    test_weights = None
    if trajectory is not None:
        try:
            test_weights = task_test_weights(task.tests_dir)
        except ValueError as exc:  # a broken tests/test_weights.json is the task's fault: recorded, scores 0
            error = error or EpisodeError("task", str(exc))
    parts = episode_reward(verifier, error, trajectory=trajectory, instruction=task.instruction,
                           judge=None if stopped else config.judge, weights=config.weights,
                           nop_passing=nop_passing_tests(task) if trajectory is not None else None,
                           test_weights=test_weights)
    return EpisodeResult(
        task=task.name,
        agent=getattr(agent, "name", type(agent).__name__),
        tests=verifier.tests if verifier else {},
        terminated=outcome.terminated,
        truncated=outcome.truncated,
        error=error,
        duration_s=time.monotonic() - start,
        parts=parts,
        verifier=verifier,
        trajectory=trajectory,
        policy=getattr(getattr(agent, "policy", None), "name", None),
        end_reason=outcome.end_reason,
        n_turns=len(trajectory.steps) if trajectory is not None else 0,
        n_tokens=trajectory.n_tokens if trajectory is not None else 0,
        token_mismatches=outcome.token_mismatches,
        agent_exit_code=outcome.exit_code,
        agent_output_tail=outcome.output_tail,
        tampered=verifier.tampered if verifier else (),
        extra={"host": host} if host else {},
    )


def _end_cut_line(path: Path) -> None:
    """A crash mid-write leaves a partial last line: end it, so the next row starts on its own line."""
    if path.is_file() and path.stat().st_size:
        with open(path, "rb+") as fh:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                fh.write(b"\n")


class EpisodeLog:
    """Appends one JSON row per finished episode, fsynced at once: a crash loses nothing.

    A row is written whole or not at all: when the disk is full (or the write fails otherwise) the
    file is cut back to where it was and ``StorageError`` (fatal: the run stops, resumably) says so.
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def append(self, row: dict | EpisodeResult) -> None:
        """Append one row (an :class:`EpisodeResult` is written as ``episode_to_row`` makes it)."""
        data = (json.dumps(episode_to_row(row) if isinstance(row, EpisodeResult) else row) + "\n").encode("utf-8")
        with self._lock:
            try:
                _end_cut_line(self.path)
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            except OSError as exc:
                raise _storage_error(self.path, exc) from exc
            try:
                size = os.fstat(fd).st_size
                try:
                    view = memoryview(data)
                    while view:
                        view = view[os.write(fd, view):]
                    os.fsync(fd)
                except OSError as exc:
                    try:
                        os.ftruncate(fd, size)  # no partial row left behind
                    except OSError:
                        pass
                    raise _storage_error(self.path, exc) from exc
            finally:
                os.close(fd)


def _storage_error(path: Path, exc: OSError) -> StorageError:
    return StorageError(f"cannot write a row to {path}: {exc.strerror or exc} -- fix: free space on the disk "
                        f"holding {path.parent} (or make it writable), then resume the run; the rows already "
                        "written are kept")
