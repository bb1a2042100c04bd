"""Episodes end to end with real containers: examples, verifier honesty, limits, failures as data."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES
from termrl.rollout.episode import run_episode
from termrl.tasks import load_task, load_tasks
from termrl.eval.validation import validate_task
from termrl.tasks.records import nop_passing_tests
from termrl.types import AgentOutcome


class ShellAgent:
    """Runs fixed shell text in the agent shell (a stand-in for a model, for these tests)."""

    name = "shell"

    def __init__(self, script: str, timeout: float | None = None):
        self.script, self.timeout = script, timeout
        self.results = []

    def run(self, task, sandbox):
        result = sandbox.exec(self.script, timeout=self.timeout or task.agent_timeout_sec)
        self.results.append(result)
        return AgentOutcome(terminated=not result.timed_out, truncated=result.timed_out)


@pytest.mark.parametrize("task_dir", sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir()))
def test_example_task_is_valid(docker_provider, task_dir):
    task = load_task(EXAMPLES / task_dir)
    result = validate_task(task, docker_provider)
    assert result.error is None, result.error
    assert result.valid and result.oracle_reward == 1.0 and result.nop_reward == 0.0
    assert nop_passing_tests(task) == set(result.nop_passed_tests)


def test_per_test_results_and_reward(docker_provider, task_factory):
    task = load_task(task_factory())
    result = run_episode(task, ShellAgent("echo wrong > /app/out.txt"), docker_provider)
    assert result.error is None
    assert result.tests == {"test_out": False, "test_always": True}
    assert result.reward == 0.0 and not result.resolved
    assert result.verifier.reward_source == "reward.txt"


def test_tests_are_hidden_during_the_agent_phase(docker_provider, task_factory):
    task = load_task(task_factory())
    agent = ShellAgent("ls /tests /solution 2>&1; echo done > /app/out.txt")
    result = run_episode(task, agent, docker_provider)
    assert "No such file" in agent.results[0].output
    assert result.resolved


def test_agent_cannot_subvert_the_verifier(docker_provider, task_factory):
    """Planted conftest.py, sitecustomize, pytest plugin, fake tests and reward files are all ignored."""
    cheat = r"""
mkdir -p /tests /logs/verifier
echo 'def test_out(): pass' > /tests/test_outputs.py
printf '#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n' > /tests/test.sh
echo 1 > /logs/verifier/reward.txt
printf 'import pytest\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    o = yield\n    o.get_result().outcome = "passed"\n' > /conftest.py
cp /conftest.py /app/conftest.py
site=$(python3 -c 'import site; print(site.getsitepackages()[0])')
mkdir -p $site
echo 'import os; os.environ["CHEATED"] = "1"; open("/tmp/sitecustomize-ran", "w").write("x")' > $site/sitecustomize.py
mkdir -p $site/cheat_plugin-1.0.dist-info
cp /conftest.py $site/cheat_plugin.py
printf 'Metadata-Version: 2.1\nName: cheat-plugin\nVersion: 1.0\n' > $site/cheat_plugin-1.0.dist-info/METADATA
printf '[pytest11]\ncheat = cheat_plugin\n' > $site/cheat_plugin-1.0.dist-info/entry_points.txt
echo 'import sys; sys.exit(0)' > /app/evil.py
nohup sh -c 'while :; do echo 1 > /logs/verifier/reward.txt 2>/dev/null; sleep 0.05; done' >/dev/null 2>&1 &
"""
    task = load_task(task_factory())
    result = run_episode(task, ShellAgent(cheat), docker_provider)
    assert result.error is None, result.error
    assert result.tests == {"test_out": False, "test_always": True}
    assert result.reward == 0.0 and not result.resolved


def test_pythonpath_is_not_inherited(docker_provider, task_factory):
    body = "import os\n\ndef test_env():\n    assert 'PYTHONPATH' not in os.environ\n    assert os.environ['TEST_DIR'] == '/tests'\n"
    task = load_task(task_factory(dockerfile="FROM termrl/base:bookworm\nWORKDIR /app\nENV PYTHONPATH=/app/shadow\n",
                                  test_body=body))
    result = run_episode(task, ShellAgent("true"), docker_provider)
    assert result.tests == {"test_env": True} and result.reward == 1.0


def test_truncated_episode_is_still_verified(docker_provider, task_factory):
    task = load_task(task_factory())
    result = run_episode(task, ShellAgent("echo done > /app/out.txt; sleep 100", timeout=1.5), docker_provider)
    assert result.truncated and not result.terminated
    assert result.error is None and result.resolved and result.reward == 1.0


def test_verifier_timeout_scores_zero(docker_provider, task_factory):
    task_dir = task_factory(test_sh="#!/bin/bash\nmkdir -p /logs/verifier; echo 1 > /logs/verifier/reward.txt\nsleep 100\n")
    toml = task_dir / "task.toml"
    toml.write_text(toml.read_text().replace("[verifier]\ntimeout_sec = 60", "[verifier]\ntimeout_sec = 2"))
    result = run_episode(load_task(task_dir), ShellAgent("echo done > /app/out.txt"), docker_provider)
    assert result.verifier.timed_out and result.reward == 0.0
    assert "timed out" in result.verifier.problem


def test_missing_reward_scores_zero_with_reason(docker_provider, task_factory):
    task = load_task(task_factory(test_sh="#!/bin/bash\necho forgot the reward\n"))
    result = run_episode(task, ShellAgent("echo done > /app/out.txt"), docker_provider)
    assert result.reward == 0.0 and result.error is None
    assert "reward.txt" in result.verifier.problem


class BombAgent:
    name = "bomb"

    def __init__(self):
        self.results = []

    def run(self, task, sandbox):
        self.results.append(sandbox.exec("bomb() { bomb | bomb & }; bomb", timeout=5))
        self.results.append(sandbox.exec(
            "sleep 3; cat /sys/fs/cgroup/pids/pids.current 2>/dev/null || cat /sys/fs/cgroup/pids.current", timeout=10))
        return AgentOutcome(terminated=True, truncated=False)


def test_fork_bomb_is_contained_and_episode_goes_on(docker_provider, task_factory):
    task = load_task(task_factory(toml_extra="pids_limit = 128\n"))
    agent = BombAgent()
    result = run_episode(task, agent, docker_provider)
    assert result.error is None, result.error
    probe = agent.results[1]
    counts = [int(tok) for tok in probe.output.split() if tok.isdigit()]
    # Either the probe itself could not fork (the limit bites) or the count is at most the limit.
    assert probe.exit_code != 0 or probe.timed_out or (counts and counts[-1] <= 128), probe
    assert result.verifier is not None and result.tests  # the tests still ran after the bomb
    again = run_episode(task, ShellAgent("echo done > /app/out.txt"), docker_provider)
    assert again.resolved


def test_memory_hog_is_contained_and_episode_goes_on(docker_provider, task_factory):
    task = load_task(task_factory())
    hog = "python3 -c 'x = bytearray(2 * 1024**3); print(len(x))'; echo exit=$?; echo done > /app/out.txt"
    agent = ShellAgent(hog, timeout=60)
    result = run_episode(task, agent, docker_provider)
    assert "exit=137" in agent.results[0].output or "MemoryError" in agent.results[0].output
    assert result.error is None and result.resolved


def test_broken_dockerfile_is_recorded_not_raised(docker_provider, task_factory):
    task = load_task(task_factory(dockerfile="FROM termrl/base:bookworm\nRUN exit 3\n"))
    result = run_episode(task, ShellAgent("true"), docker_provider)
    assert result.error is not None and result.error.boundary == "image"
    assert "Dockerfile" in result.error.message and result.reward == 0.0


def test_unknown_base_image_names_the_fix(docker_provider, task_factory):
    task = load_task(task_factory(dockerfile="FROM example.invalid/nothing:1\n"))
    result = run_episode(task, ShellAgent("true"), docker_provider)
    assert result.error.boundary == "image"
    assert "example.invalid/nothing:1" in result.error.message and "alias" in result.error.message


def test_oracle_without_solution_is_a_task_error(docker_provider, task_factory):
    from termrl.agent.reference import OracleAgent

    task_dir = task_factory()
    (task_dir / "solution" / "solve.sh").unlink()
    result = run_episode(load_task(task_dir), OracleAgent(), docker_provider)
    assert result.error.boundary == "task" and "solve.sh" in result.error.message


def test_examples_in_batch(docker_provider):
    """The reference agent over all examples, as `make run` does."""
    from termrl.agent.reference import OracleAgent

    report = load_tasks([EXAMPLES])
    results = [run_episode(t, OracleAgent(), docker_provider) for t in report.tasks]
    assert all(r.resolved for r in results), [(r.task, r.error) for r in results if not r.resolved]


def test_validation_rejects_accepted_wrong_solutions_and_checks_repeats(docker_provider, task_factory):
    task_dir = task_factory()
    (task_dir / "solution" / "wrong_typo.sh").write_text("echo dnoe > /app/out.txt\n")
    good = validate_task(load_task(task_dir), docker_provider, repeats=2)
    assert good.valid and good.wrong_rewards == {"wrong_typo.sh": 0.0} and good.repeats == 2 and good.stable
    (task_dir / "solution" / "wrong_same.sh").write_text("echo done > /app/out.txt\n")
    bad = validate_task(load_task(task_dir), docker_provider)
    assert not bad.valid and "wrong_same.sh scores 1" in bad.error


def test_validation_detects_unstable_tasks(docker_provider, task_factory):
    flaky = "import random\n\ndef test_coin():\n    assert random.random() < 0.5\n"
    task = load_task(task_factory(test_body=flaky, solve="true\n"))
    result = validate_task(task, docker_provider, repeats=6)
    assert not result.valid  # oracle fails sometimes, or nop passes sometimes, or both vary
    assert not result.stable or result.oracle_reward < 1.0 or result.nop_reward > 0.0
