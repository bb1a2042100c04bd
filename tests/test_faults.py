"""Faults of real clusters, injected against the real parts: each run goes on, every episode has a row
(failed ones with their boundary), nothing is counted twice, and no container is left.

The Docker-engine restart uses a private dockerd (termrl.testing.faults.PrivateEngine), never the
machine's main engine; the endpoints are a stub OpenAI server on loopback; the full disk is a tmpfs.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
import uuid

import docker
import pytest

from termrl.agent.loop import AgentConfig, TermAgent
from termrl.agent.reference import OracleAgent
from termrl.errors import INFRASTRUCTURE_BOUNDARIES
from termrl.policies.openai import OpenAIPolicy
from termrl.policies.scripted import ScriptedPolicy
from termrl.rewards.judges import get_judge
from termrl.rollout.engine import RolloutEngine, TrajectoryStore
from termrl.rollout.episode import EpisodeConfig, run_episode
from termrl.rollout.shutdown import STOP
from termrl.sandbox.docker import DockerProvider
from termrl.sandbox.reaper import LABEL, OWNER_BOOT, owner_labels, reap_orphans
from termrl.tasks import load_task
from termrl.testing.faults import PrivateEngine, StubOpenAI, fill, small_disk

SLOW = "sleep {s}\necho done > /app/out.txt\n"


@pytest.fixture(autouse=True)
def _fresh_stop():
    STOP.reset()
    yield
    STOP.reset()


def _mine(client, task_name: str) -> list:
    return client.containers.list(all=True, ignore_removed=True, filters={"label": [LABEL, f"termrl.task={task_name}"]})


def _wait_running(client, task_name: str, n: int = 1, timeout: float = 120) -> list:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        running = [c for c in _mine(client, task_name) if c.status == "running"]
        if len(running) >= n:
            return running
        time.sleep(0.2)
    raise AssertionError(f"no {n} running container(s) of {task_name} within {timeout} s")


def _keys_once(store: TrajectoryStore) -> None:
    finished = [r["key"] for r in store.rows() if (r.get("error") or {}).get("boundary") != "interrupted"]
    assert len(finished) == len(set(finished)), "an episode was counted twice"


# -- reaping -------------------------------------------------------------------------------------

def test_reaper_removes_only_containers_whose_owner_provably_ended(docker_client):
    dead = subprocess.Popen(["sleep", "0"])
    dead_labels = owner_labels(dead.pid)  # read while it runs: pid + start time
    dead.wait()
    me = owner_labels()
    cases = {
        "dead-owner": dead_labels,
        "recycled-pid": {**me, "termrl.owner_start": str(int(me["termrl.owner_start"]) - 1)},  # same pid, older process
        "live-owner": me,
        "other-host": {**dead_labels, OWNER_BOOT: str(uuid.uuid4())},
        "old-labels": {"termrl.owner_pid": dead_labels["termrl.owner_pid"]},
    }
    tag = uuid.uuid4().hex[:6]
    made = {name: docker_client.containers.create("termrl/base:bookworm", ["sleep", "infinity"],
                                                  name=f"termrl-reap-{name}-{tag}",
                                                  labels={LABEL: "1", "termrl.test": tag, **labels})
            for name, labels in cases.items()}
    try:
        removed = reap_orphans(docker_client)
        left = {c.name for c in docker_client.containers.list(all=True, ignore_removed=True,
                                                              filters={"label": f"termrl.test={tag}"})}
        assert {f"termrl-reap-dead-owner-{tag}", f"termrl-reap-recycled-pid-{tag}"} <= set(removed)
        assert left == {f"termrl-reap-{n}-{tag}" for n in ("live-owner", "other-host", "old-labels")}
    finally:
        for c in made.values():
            try:
                c.remove(force=True)
            except docker.errors.NotFound:
                pass


# -- a container killed mid-episode ----------------------------------------------------------------

SLOW_TESTS = ("#!/bin/bash\nsleep 10\nmkdir -p /logs/verifier\npython3 -m pytest --junitxml=/logs/verifier/junit.xml "
              "/tests/test_outputs.py && echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt\n")


@pytest.mark.parametrize("phase", ["agent", "verifier"])
def test_container_killed_mid_episode_is_a_masked_infrastructure_error(tmp_path, task_factory, docker_client, phase):
    slow = {"solve": SLOW.format(s=8)} if phase == "agent" else {"test_sh": SLOW_TESTS}
    task = load_task(task_factory(**slow))
    store = TrajectoryStore(tmp_path / "rollouts.jsonl")
    engine = RolloutEngine(DockerProvider(), OracleAgent, store=store, max_concurrency=2)

    def kill_one() -> None:
        victim = _wait_running(docker_client, task.name, 2)[0]
        time.sleep(4.0 if phase == "verifier" else 1.0)  # the oracle's command, or the tests, run in it
        subprocess.run(["docker", "kill", victim.id], check=True, capture_output=True)

    killer = threading.Thread(target=kill_one)
    killer.start()
    rollout = engine.run([task], group_size=2)
    killer.join()
    rows = rollout.groups[task.name]
    assert len(rows) == 2 and len(store.rows()) == 2
    failed = [r for r in rows if r.error]
    assert len(failed) == 1 and failed[0].error.boundary == "sandbox", [r.error for r in rows]
    assert failed[0].error.boundary in INFRASTRUCTURE_BOUNDARIES and failed[0].reward == 0.0
    assert [r.resolved for r in rows if not r.error] == [True]  # the other episode went on
    assert _mine(docker_client, task.name) == []


# -- the Docker engine restarted mid-run -----------------------------------------------------------

@pytest.fixture(scope="module")
def private_engine():
    engine = PrivateEngine()
    engine.start()
    try:
        engine.load_image("termrl/base:bookworm")
        yield engine
    finally:
        engine.close()


def test_engine_restart_mid_run_pauses_and_the_run_goes_on(tmp_path, task_factory, private_engine):
    task = load_task(task_factory(solve=SLOW.format(s=6)))
    client = private_engine.client()
    store = TrajectoryStore(tmp_path / "rollouts.jsonl")
    provider = DockerProvider(client, engine_retry_s=90)
    engine = RolloutEngine(provider, OracleAgent, store=store, max_concurrency=2,
                           episode_config=EpisodeConfig(verifier_network=False))

    def restart() -> None:
        _wait_running(client, task.name, 2)
        time.sleep(1.5)  # the oracle's command runs in both
        private_engine.restart(down_s=2.0)

    restarter = threading.Thread(target=restart)
    restarter.start()
    rollout = engine.run([task], group_size=4)
    restarter.join()
    provider.close()
    rows = rollout.groups[task.name]
    assert len(rows) == 4 and rollout.complete
    assert all(r.resolved or r.error.boundary == "sandbox" for r in rows), [r.error for r in rows]
    assert any(r.error for r in rows), "the restart hit no episode in flight"
    assert any(r.resolved for r in rows), "no episode ran after the engine came back"
    _keys_once(store)
    leftovers = client.containers.list(all=True, ignore_removed=True, filters={"label": LABEL})
    assert leftovers == []  # the ones lost while the engine was away were removed once it was back
    client.close()


def test_engine_down_past_the_bound_stops_the_run_clearly(tmp_path, task_factory, private_engine):
    task = load_task(task_factory())
    client = private_engine.client()
    store = TrajectoryStore(tmp_path / "rollouts.jsonl")
    provider = DockerProvider(client, engine_retry_s=3)
    engine = RolloutEngine(provider, OracleAgent, store=store, max_concurrency=1,
                           episode_config=EpisodeConfig(verifier_network=False))
    private_engine.stop()
    try:
        rollout = engine.run([task], group_size=2)
    finally:
        private_engine.start()
    assert not rollout.complete and STOP.fatal
    assert "did not answer" in STOP.reason and "fix: start or repair dockerd" in STOP.reason
    rows = store.rows()
    assert len(rows) == 1 and rows[0]["error"]["boundary"] == "sandbox"  # the second episode never started
    STOP.reset()
    again = RolloutEngine(provider, OracleAgent, store=store, episode_config=EpisodeConfig(verifier_network=False))
    assert len(again.run([task], group_size=2).groups[task.name]) == 2  # resumable once it is back
    client.close()


def test_engine_lost_between_agent_and_verifier_is_a_sandbox_error(tmp_path, task_factory, private_engine):
    """The verifier's first engine calls (the image's inventory, the integrity step) are at the sandbox
    boundary too: an engine that dies after the agent finished gives a recorded sandbox error, not a crash."""
    task = load_task(task_factory())
    client = private_engine.client()
    provider = DockerProvider(client, engine_retry_s=3)

    class StopsTheEngine(OracleAgent):
        def run(self, task, sandbox):
            outcome = super().run(task, sandbox)
            private_engine.stop()
            return outcome

    try:
        result = run_episode(task, StopsTheEngine(), provider, EpisodeConfig(verifier_network=False))
    finally:
        private_engine.start()
    assert result.error is not None and result.error.boundary == "sandbox", result.error
    assert "lost the Docker engine" in result.error.message and result.reward == 0.0
    provider.close()  # removes the container lost with the engine, now that it answers
    assert client.containers.list(all=True, ignore_removed=True, filters={"label": LABEL}) == []
    client.close()


# -- the policy endpoint down or erroring ----------------------------------------------------------

def _solver(messages: list[dict]) -> str:
    return "<finish></finish>" if len(messages) > 2 else "<bash>echo done > /app/out.txt</bash>"


def test_policy_endpoint_outage_is_retried_then_recorded_as_a_policy_error(task_factory, docker_provider):
    task = load_task(task_factory())
    stub = StubOpenAI(_solver)
    try:
        policy = OpenAIPolicy(base_url=stub.base_url, api_key="", model="stub", backoff_s=0.2, max_backoff_s=1.0,
                              max_retries=8, max_retry_time_s=20)
        agent = TermAgent(policy, AgentConfig(action_format="xml", max_turns=3))
        stub.erroring(requests=3)  # 503s for a while, then it recovers
        result = run_episode(task, agent, docker_provider, EpisodeConfig(judge=None))
        assert result.error is None and result.resolved, result.error
        assert stub.failed == 3 and stub.requests == 3 + 2  # retried through the outage; two replies

        stub.down()  # and now down for good: retries run out
        quick = OpenAIPolicy(base_url=stub.base_url, api_key="", model="stub", backoff_s=0.2, max_backoff_s=0.5,
                             max_retries=3, max_retry_time_s=5)
        result = run_episode(task, TermAgent(quick, AgentConfig(action_format="xml", max_turns=3)), docker_provider,
                             EpisodeConfig(judge=None))
        assert result.error is not None and result.error.boundary == "policy"
        assert "failed after 4 attempt(s)" in result.error.message and "ConnectError" in result.error.message
        assert result.reward == 0.0 and result.verifier is None
    finally:
        stub.close()


def test_llm_judge_down_falls_back_to_tests_visibly(task_factory, docker_provider, capsys):
    from termrl.cli.run import _print_episodes

    task = load_task(task_factory())
    stub = StubOpenAI(lambda m: "{}")
    stub.down()
    judge = get_judge("llm", policy=OpenAIPolicy(base_url=stub.base_url, api_key="", model="stub", backoff_s=0.1,
                                                 max_retries=1, max_retry_time_s=2))
    agent = TermAgent(ScriptedPolicy(["<bash>echo done > /app/out.txt</bash>", "<finish></finish>"]),
                      AgentConfig(action_format="xml", max_turns=3))
    result = run_episode(task, agent, docker_provider, EpisodeConfig(judge=judge))
    assert result.error is None and result.resolved
    assert result.judge_score is None and "ConnectError" in result.judge_error
    assert result.reward == pytest.approx(result.test_score) == pytest.approx(1.0)
    _print_episodes([result])
    assert "the judge failed on 1 episode(s): their reward is the tests' score alone" in capsys.readouterr().out


# -- the disk under the run directory full ---------------------------------------------------------

def test_disk_full_stops_cleanly_without_a_cut_row_and_resumes(tmp_path, task_factory, docker_client):
    task = load_task(task_factory())
    with small_disk(tmp_path / "run", 512) as run_dir:
        store = TrajectoryStore(run_dir / "rollouts.jsonl")
        provider = DockerProvider()
        row_bytes = 2600  # an oracle row of this task: about 1.5-2.5 KB
        filler = fill(run_dir, leave_bytes=2 * row_bytes + 2048)
        rollout = RolloutEngine(provider, OracleAgent, store=store, max_concurrency=1).run([task], group_size=6)
        assert not rollout.complete and STOP.fatal and "No space left on device" in STOP.reason
        assert "free space on the disk" in STOP.reason
        text = store.path.read_text()
        assert text == "" or text.endswith("\n")
        kept = [json.loads(line) for line in text.splitlines()]  # every line is a whole row
        assert 0 < len(kept) < 6
        filler.unlink()  # space is back
        STOP.reset()
        again = RolloutEngine(provider, OracleAgent, store=store, max_concurrency=2).run([task], group_size=6)
        assert again.complete and len(again.groups[task.name]) == 6
        assert all(r.resolved for r in again.groups[task.name])
        assert len(store.rows()) == 6  # the kept rows were reused, the rest ran once
        _keys_once(store)
    assert _mine(docker_client, task.name) == []
