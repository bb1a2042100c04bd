"""Rollouts over several Docker engines (termrl.sandbox.multihost): placement on the least-loaded live
engine, task images built per engine, and an engine that dies mid-run -- its episodes are re-run on
the other engine, each counted once, and no container is left on either.

The second engine is a private dockerd (termrl.testing.faults.PrivateEngine), never the machine's main one.
"""

from __future__ import annotations

import threading
import time

import pytest

from termrl.agent.reference import OracleAgent
from termrl.errors import SandboxError
from termrl.rollout.engine import RolloutEngine, TrajectoryStore
from termrl.rollout.episode import EpisodeConfig
from termrl.rollout.shutdown import STOP
from termrl.sandbox.multihost import MultiHostProvider
from termrl.sandbox.reaper import LABEL
from termrl.tasks import load_task
from termrl.testing.faults import PrivateEngine

MAIN = "unix:///var/run/docker.sock"
pytestmark = pytest.mark.docker


@pytest.fixture(autouse=True)
def _fresh_stop():
    STOP.reset()
    yield
    STOP.reset()


@pytest.fixture(scope="module")
def second_engine():
    engine = PrivateEngine(name=f"termrl-multihost-{time.monotonic_ns() % 10**6}")
    engine.start()
    try:
        engine.load_image("termrl/base:bookworm")  # what `termrl images build` would have built on that host
        yield engine
    finally:
        engine.close()


def _mine(client, task_name: str) -> list:
    return client.containers.list(all=True, ignore_removed=True, filters={"label": [LABEL, f"termrl.task={task_name}"]})


def _in_episode(container) -> bool:
    """Whether the oracle's ``sleep 5`` runs in ``container`` (a warm-pool container waits idle)."""
    try:
        return any("sleep 5" in " ".join(p) for p in container.top().get("Processes") or [])
    except Exception:  # it just finished, or is being removed
        return False


def test_a_dead_engine_at_start_is_skipped_and_all_dead_is_a_clear_error(tmp_path, task_factory):
    dead = f"unix://{tmp_path}/none.sock"
    with pytest.raises(SandboxError, match="no Docker engine in sandbox.hosts answers.*none.sock"):
        MultiHostProvider([dead, f"unix://{tmp_path}/other.sock"])
    with pytest.raises(SandboxError, match="lists an engine twice"):
        MultiHostProvider([MAIN, MAIN])
    task = load_task(task_factory())
    provider = MultiHostProvider([dead, MAIN])
    try:
        rollout = RolloutEngine(provider, OracleAgent, store=TrajectoryStore(tmp_path / "r.jsonl"), max_concurrency=2,
                                episode_config=EpisodeConfig(verifier_network=False)).run([task], group_size=2)
    finally:
        provider.close()
    assert [r.resolved for r in rollout.groups[task.name]] == [True, True]
    assert provider.usage() == {dead: 0, MAIN: 2}


def test_episodes_spread_over_two_engines_and_one_dying_mid_run_loses_nothing(tmp_path, task_factory, docker_client,
                                                                             second_engine):
    task = load_task(task_factory(solve="sleep 5\necho done > /app/out.txt\n"))
    private = second_engine.client()
    store = TrajectoryStore(tmp_path / "rollouts.jsonl")
    provider = MultiHostProvider([MAIN, second_engine.url], capacity=2, pool_size=1, host_retry_s=3)
    engine = RolloutEngine(provider, OracleAgent, store=store, max_concurrency=4,
                           episode_config=EpisodeConfig(verifier_network=False))
    hit: list[str] = []

    def kill_second_engine() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not hit:  # until an episode there is mid-command (not an idle one)
            hit.extend(c.id for c in _mine(private, task.name) if c.status == "running" and _in_episode(c))
            time.sleep(0.2)
        second_engine.stop()

    killer = threading.Thread(target=kill_second_engine)
    killer.start()
    try:
        rollout = engine.run([task], group_size=6)
    finally:
        killer.join()
        second_engine.start()  # back, so what was lost on it can be checked and removed
        provider.close()
    rows = rollout.groups[task.name]
    assert rollout.complete and len(rows) == 6
    assert all(r.resolved and r.error is None for r in rows), [r.error for r in rows]  # the lost ones ran again

    stored = store.rows()
    assert sorted(r["key"] for r in stored) == sorted(store.key(0, task.name, i) for i in range(6))  # one row each
    rerun = [r for r in stored if r.get("lost_hosts")]
    assert hit, "no episode ran on the second engine before it was stopped"
    assert rerun, f"the engine stopped with episodes in {hit} running on it, but none was re-run"
    for row in rerun:  # the lost attempt is recorded (infrastructure error, naming the host), the rerun counts
        assert all(lost["host"] == second_engine.url for lost in row["lost_hosts"])
        assert row["resolved"] and row["error"] is None
    usage = provider.usage()
    assert usage[MAIN] >= 1 and usage[second_engine.url] >= 2, usage  # both engines were used
    assert not [h.url for h in provider.hosts if h.up] == [MAIN, second_engine.url]  # the dead one was marked down

    assert _mine(docker_client, task.name) == []
    assert _mine(private, task.name) == []  # those lost with the engine were removed once it answered
    private.close()


# -- placement logic, on stand-in engines (the end-to-end tests above use real ones) --------------

class _Box:
    def __init__(self, image: str):
        self.image = image
        self.closed = False

    def close(self) -> None:
        self.closed = True


class _Engine:
    def __init__(self):
        self.alive = True
        self.images: list[str] = []

    def ping(self) -> bool:
        if not self.alive:
            raise ConnectionError("down")
        return True

    def start(self, spec):
        if not self.alive:
            from termrl.errors import EngineUnavailable

            raise EngineUnavailable("down")
        self.images.append(spec.image)
        return _Box(spec.image)


def _provider(n: int, capacity: int) -> tuple[MultiHostProvider, list[_Engine]]:
    import threading as _t

    from termrl.sandbox.multihost import Host

    engines = [_Engine() for _ in range(n)]
    provider = object.__new__(MultiHostProvider)
    provider.recheck_s = 3600
    provider._cond = _t.Condition()
    provider._local = _t.local()
    provider.hosts = [Host(f"tcp://n{i}:2376", e, e, capacity) for i, e in enumerate(engines)]
    return provider, engines


def test_least_loaded_host_under_capacity_failover_and_lost_host():
    from termrl.errors import EngineUnavailable
    from termrl.sandbox.base import SandboxSpec

    provider, engines = _provider(3, capacity=2)
    provider.hosts[1].tags["img"] = "img-on-n1"  # the tag that host built
    provider.hosts[2].lacks.add("img")  # that host could not build it
    boxes = [provider.start(SandboxSpec(image="img")) for _ in range(4)]
    assert [b.host.url for b in boxes] == ["tcp://n0:2376", "tcp://n1:2376", "tcp://n0:2376", "tcp://n1:2376"]
    assert engines[1].images == ["img-on-n1", "img-on-n1"] and engines[2].images == []
    waiter = threading.Thread(target=lambda: boxes.append(provider.start(SandboxSpec(image="img"))))
    waiter.start()  # both hosts that have the image are full: it waits for a slot
    time.sleep(0.3)
    assert len(boxes) == 4
    boxes[1].close()
    waiter.join(5)
    assert len(boxes) == 5 and boxes[-1].host.url == "tcp://n1:2376"

    engines[0].alive = False  # n0 dies: an episode there is lost, the next start goes elsewhere
    provider._local.host = boxes[0].host
    assert provider.lost_host() == "tcp://n0:2376" and not provider.hosts[0].up
    for box in boxes:
        box.close()
    assert provider.start(SandboxSpec(image="other")).host.url in ("tcp://n1:2376", "tcp://n2:2376")
    engines[1].alive = engines[2].alive = False
    with pytest.raises(EngineUnavailable, match="every Docker engine in sandbox.hosts is down"):
        for _ in range(3):
            provider.start(SandboxSpec(image="other"))
