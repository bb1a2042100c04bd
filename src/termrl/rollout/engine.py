"""The rollout engine: G episodes per task, many tasks at once, each in its own container.

asyncio drives the episodes; each episode runs in a worker thread (the Docker SDK and the
sandbox are blocking) under a semaphore that bounds concurrency. Concurrent episodes'
generation requests meet in the hf policy, which batches them. Every finished episode is
appended to the trajectory store at once, keyed by (step, task, index): a restarted run
skips what the store already holds and runs only what is missing.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import Any, Callable

from termrl.errors import Interrupted, StorageError, TermrlError
from termrl.rollout.episode import EpisodeConfig, EpisodeLog, run_episode, sandbox_spec
from termrl.rollout.shutdown import STOP
from termrl.sandbox.base import SandboxProvider
from termrl.types import EpisodeResult, Task, episode_from_row, episode_to_row

log = logging.getLogger(__name__)


class TrajectoryStore(EpisodeLog):
    """JSONL, one row per episode (token ids, masks, log-probs, reward parts, errors), fsynced."""

    @staticmethod
    def key(step: int, task: str, index: int) -> str:
        return f"{step}:{task}:{index}"

    def rows(self) -> list[dict[str, Any]]:
        """Every complete row (a line cut short by a crash is ignored)."""
        if not self.path.is_file():
            return []
        out = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
        return out

    def by_key(self) -> dict[str, dict[str, Any]]:
        """The last row of each key (a rerun of an interrupted episode supersedes its first row)."""
        return {r["key"]: r for r in self.rows() if "key" in r}

    def finished(self) -> dict[str, dict[str, Any]]:
        """Rows a resumed run keeps: every key whose last row is not ``interrupted``."""
        return {k: r for k, r in self.by_key().items() if not interrupted(r)}

    def next_step(self) -> int:
        """One past the highest step in the store (0 when empty): where a run that must not resume starts."""
        return max((int(r["step"]) for r in self.rows() if isinstance(r.get("step"), int)), default=-1) + 1


def interrupted(row: dict[str, Any]) -> bool:
    return (row.get("error") or {}).get("boundary") == Interrupted.boundary


@dataclass
class Rollout:
    """One step's groups, in task order: each task's episodes, by index."""

    groups: dict[str, list[EpisodeResult]]
    complete: bool = True
    """False when the run was stopped: some episodes have no row or an ``interrupted`` one."""


class RolloutEngine:
    def __init__(self, provider: SandboxProvider, make_agent: Callable[[], Any], *, store: TrajectoryStore,
                 episode_config: EpisodeConfig | None = None, max_concurrency: int = 4,
                 on_episode: Callable[[EpisodeResult], None] | None = None, host_retries: int = 2):
        """``on_episode`` is called with each episode as it finishes (progress bars), not with resumed ones.

        ``host_retries``: how many times an episode whose Docker host died under it is re-run on another
        host (providers over several hosts only: they answer ``lost_host()``)."""
        self.provider = provider
        self.host_retries = host_retries
        self.on_episode = on_episode
        self.make_agent = make_agent
        self.store = store
        self.config = episode_config or EpisodeConfig()
        self.max_concurrency = max_concurrency

    async def _episode(self, sem: asyncio.Semaphore, task: Task, step: int, index: int) -> EpisodeResult | None:
        async with sem:
            if STOP.requested:
                return None  # a stopped run draws no new episode
            result, lost = await asyncio.to_thread(self._attempt, task)
            lost_hosts = []
            while lost is not None and len(lost_hosts) < self.host_retries and not STOP.requested:
                # The host died under the episode: an infrastructure failure, not the policy's -- run it again.
                log.warning("episode %s: Docker host %s went down under it (%s); re-running it on another host",
                            self.store.key(step, task.name, index), lost, result.error.message[:300])
                lost_hosts.append({"host": lost, "error": result.error.message})
                result, lost = await asyncio.to_thread(self._attempt, task)
        extra = {"lost_hosts": lost_hosts} if lost_hosts else {}
        try:
            self.store.append({"key": self.store.key(step, task.name, index), "step": step, "index": index,
                               **episode_to_row(result), **extra})
        except StorageError as exc:
            STOP.request(str(exc), fatal=True)  # nothing more can be recorded: stop, resumably
            return None
        if self.on_episode is not None:
            self.on_episode(result)
        return result

    async def _expect(self, todo: list[tuple[Task, int]]) -> None:
        """Tell a pooling provider which episodes are coming, in order: it starts their containers ahead
        (while the first episodes generate) and never starts one nobody will use."""
        if not hasattr(self.provider, "expect") or STOP.requested:
            return
        for task in {id(t): t for t, _ in todo}.values():
            try:
                image = await asyncio.to_thread(self.provider.image_for, task, self.config.image_config)
            except TermrlError:
                continue  # the episodes themselves will record the failure
            self.provider.expect(sandbox_spec(task, image, self.config), sum(t is task for t, _ in todo))

    def _attempt(self, task: Task) -> tuple[EpisodeResult, str | None]:
        """One run of an episode, and (when it failed) the Docker host that died under it, if one did."""
        result = run_episode(task, self.make_agent(), self.provider, self.config)
        lost_host = getattr(self.provider, "lost_host", None)
        lost = lost_host() if lost_host is not None else None
        if result.error is None or _interrupted(result):
            lost = None
        return result, lost

    async def run_async(self, tasks: list[Task], group_size: int, step: int = 0) -> Rollout:
        done = self.store.finished()
        sem = asyncio.Semaphore(self.max_concurrency)
        todo = [(task, i) for task in tasks for i in range(group_size) if self.store.key(step, task.name, i) not in done]
        await self._expect(todo)
        jobs = {self.store.key(step, task.name, i): asyncio.create_task(self._episode(sem, task, step, i))
                for task, i in todo}
        results = {key: episode_from_row(done[key]) for key in (self.store.key(step, t.name, i) for t in tasks
                                                                for i in range(group_size)) if key in done}
        for key, job in jobs.items():
            results[key] = await job
        complete = all(r is not None and not _interrupted(r) for r in results.values())
        return Rollout({t.name: [r for i in range(group_size)
                                 if (r := results.get(self.store.key(step, t.name, i))) is not None]
                        for t in tasks}, complete=complete)

    async def run_samples_async(self, samples: list[tuple[Task, int]], step: int = 0) -> list[EpisodeResult | None]:
        """One episode per ``(task, index)``, keyed ``(step, task, index)``; results in the order given.

        For engines that hand out their own batch (TRL gives each process its slice of a step's
        samples, a task repeated once per generation): the caller picks indices unique within the
        step (e.g. the sample's position in the whole step's batch), so no two episodes share a key.
        Rows already in the store are reused (a resumed step runs only what is missing). A sample
        is None when the run was stopped before its episode started.

        Raises:
            ValueError: two samples share a key.
        """
        keys = [self.store.key(step, task.name, index) for task, index in samples]
        if len(set(keys)) != len(keys):
            raise ValueError(f"step {step}: samples repeat an episode key ({len(keys) - len(set(keys))} duplicates) "
                             "-- give every sample of a step its own index")
        done = self.store.finished()
        sem = asyncio.Semaphore(self.max_concurrency)
        todo = [sample for key, sample in zip(keys, samples) if key not in done]
        await self._expect(todo)
        jobs = {key: asyncio.create_task(self._episode(sem, task, step, index))
                for key, (task, index) in zip(keys, samples) if key not in done}
        results: dict[str, EpisodeResult | None] = {key: episode_from_row(done[key]) for key in keys if key in done}
        for key, job in jobs.items():
            results[key] = await job
        return [results[key] for key in keys]

    def run_samples(self, samples: list[tuple[Task, int]], step: int = 0) -> list[EpisodeResult | None]:
        """Synchronous :meth:`run_samples_async`."""
        return asyncio.run(self.run_samples_async(samples, step))

    def run(self, tasks: list[Task], group_size: int, step: int = 0) -> Rollout:
        """Run (or resume) ``group_size`` episodes of each task for ``step``."""
        return asyncio.run(self.run_async(tasks, group_size, step))


def _interrupted(result: EpisodeResult) -> bool:
    return result.error is not None and result.error.boundary == Interrupted.boundary
