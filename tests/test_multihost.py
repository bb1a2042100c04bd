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
    hit: list[int] = []

    def kill_second_engine() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # wait until episodes run there, mid-command
            running = [c for c in _mine(private, task.name) if c.status == "running"]
            if len(running) >= 2:
                break
            time.sleep(0.2)
        time.sleep(2.0)
        hit.append(len([c for c in _mine(private, task.name) if c.status == "running"]))
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
    assert rerun, f"the engine stopped with {hit} episode(s) running on it, but none was re-run"
    for row in rerun:  # the lost attempt is recorded (infrastructure error, naming the host), the rerun counts
        assert all(lost["host"] == second_engine.url for lost in row["lost_hosts"])
        assert row["resolved"] and row["error"] is None
    usage = provider.usage()
    assert usage[MAIN] >= 1 and usage[second_engine.url] >= 2, usage  # both engines were used
    assert not [h.url for h in provider.hosts if h.up] == [MAIN, second_engine.url]  # the dead one was marked down

    assert _mine(docker_client, task.name) == []
    assert _mine(private, task.name) == []  # those lost with the engine were removed once it answered
    private.close()
