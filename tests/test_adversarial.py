"""The adversarial acceptance suite: reward-hacking tricks against an impossible task, on real containers.

Every trick in tests/adversarial/tricks.py is run as the whole solution of a task no honest agent
can solve (the answer is drawn at random when the test runs). Each must score 0, and each that
changes the verification toolchain must be recorded as ``tampered``. A companion task checks the
other direction: legitimate changes (a pip-installed package with a console script, a new
library, a service started by the agent, files written anywhere) are not flagged and still pass.

The tricks share one image and run three at a time, in chunks of six, so the suite stays short.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "adversarial"))

from tricks import TEST_PY, TEST_SH, TRICKS  # noqa: E402

from termrl.images.build import ImageConfig  # noqa: E402
from termrl.rollout.episode import run_episode  # noqa: E402
from termrl.tasks import load_task  # noqa: E402
from termrl.types import AgentOutcome  # noqa: E402


class TrickAgent:
    """Runs the trick in the agent shell, then (if the shell still works) a harmless probe."""

    name = "trick"

    def __init__(self, script: str):
        self.script = script
        self.results = []

    def run(self, task, sandbox):
        self.results.append(sandbox.exec(self.script, timeout=120))
        return AgentOutcome(terminated=True, truncated=False)


@pytest.fixture(scope="module")
def impossible_task(tmp_path_factory, docker_client):
    from conftest import write_task

    root = tmp_path_factory.mktemp("adversarial")
    path = write_task(root, "adversarial-impossible", test_body=TEST_PY, test_sh=TEST_SH,
                      solve="echo no-one-knows > /app/answer.txt\n")
    task = load_task(path)
    yield task
    for image in docker_client.images.list(filters={"label": f"termrl.task={task.name}"}):
        docker_client.images.remove(image.id, force=True)


CHUNK = 6


def test_the_suite_covers_every_class():
    assert len(TRICKS) >= 24 and {t.kind for t in TRICKS} >= {"program", "loader", "python", "process", "defence"}
    assert len({t.name for t in TRICKS}) == len(TRICKS)


@pytest.mark.parametrize("chunk", range(0, len(TRICKS), CHUNK), ids=lambda i: f"tricks-{i}-{i + CHUNK - 1}")
def test_tricks_score_zero_and_are_flagged(docker_provider, impossible_task, chunk):
    docker_provider.image_for(impossible_task, ImageConfig())  # built once, before the threads

    def one(trick):
        agent = TrickAgent(trick.script)
        return trick, agent, run_episode(impossible_task, agent, docker_provider)

    with ThreadPoolExecutor(3) as pool:
        outcomes = list(pool.map(one, TRICKS[chunk:chunk + CHUNK]))
    problems = []
    for trick, agent, result in outcomes:
        setup = agent.results[0] if agent.results else None
        if result.error is not None:
            problems.append(f"{trick.name}: episode error {result.error}")
        elif result.reward != 0.0 or result.resolved:
            problems.append(f"{trick.name}: scored {result.reward} (verifier: {result.verifier.reward_source}, "
                            f"{result.verifier.output[-300:]!r})")
        elif trick.flag and not result.tampered:
            problems.append(f"{trick.name}: not flagged as tampered (trick output: "
                            f"{setup.output[-300:] if setup else None!r}; verifier problem: "
                            f"{result.verifier.problem})")
        elif trick.flag is False and result.tampered:
            problems.append(f"{trick.name}: flagged {result.tampered}, but it changes no toolchain")
        if result.verifier is not None and result.verifier.problem is None and not result.verifier.tests:
            problems.append(f"{trick.name}: the tests did not run on the restored toolchain "
                            f"({result.verifier.output[-300:]!r})")
    assert not problems, "\n".join(problems)


LEGIT_TEST = """import importlib, subprocess, urllib.request
from pathlib import Path


def test_answer():
    assert Path("/app/out.txt").read_text().strip() == "done"


def test_pip_installed_package_and_its_program():
    assert importlib.import_module("legitpkg").VALUE == 42
    assert subprocess.run(["legit-tool"], capture_output=True, text=True).stdout.strip() == "42"


def test_service_the_agent_started_still_answers():
    with urllib.request.urlopen("http://127.0.0.1:8765/out.txt", timeout=10) as reply:
        assert reply.read().decode().strip() == "done"


def test_new_library_and_program():
    assert Path("/usr/local/lib/liblegit.so.1").exists()
    assert subprocess.run(["/usr/local/bin/hello-legit"], capture_output=True, text=True).stdout == "hi\\n"
"""

LEGIT_SOLVE = r"""
mkdir -p /app /tmp/legitpkg/legitpkg && cd /tmp/legitpkg
printf 'VALUE = 42\ndef main():\n    print(VALUE)\n' > legitpkg/__init__.py
printf '[project]\nname = "legitpkg"\nversion = "1.0"\n[project.scripts]\nlegit-tool = "legitpkg:main"\n[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n' > pyproject.toml
pip install -q --no-index --no-build-isolation . 2>&1 | tail -3
printf 'int legit(void) { return 1; }\n' > /tmp/l.c && gcc -shared -fPIC -o /usr/local/lib/liblegit.so.1 /tmp/l.c && ldconfig
printf '#!/bin/sh\necho hi\n' > /usr/local/bin/hello-legit && chmod +x /usr/local/bin/hello-legit
echo 'export EDITOR=vi' >> /root/.bashrc
echo done > /app/out.txt
cd /app && nohup python3 -m http.server 8765 >/dev/null 2>&1 &
for i in $(seq 300); do grep -q ':223D 00000000:0000 0A' /proc/net/tcp && break; sleep 0.2; done
python3 -c 'import legitpkg' && echo installed
"""


def test_legitimate_changes_are_not_flagged_and_services_keep_running(docker_provider, task_factory):
    task = load_task(task_factory(test_body=LEGIT_TEST, solve=LEGIT_SOLVE))
    agent = TrickAgent(LEGIT_SOLVE)
    result = run_episode(task, agent, docker_provider)
    assert "installed" in agent.results[0].output, agent.results[0].output
    assert result.error is None, result.error
    assert result.tampered == (), result.verifier.problem
    assert result.tests == {"test_answer": True, "test_pip_installed_package_and_its_program": True,
                            "test_service_the_agent_started_still_answers": True,
                            "test_new_library_and_program": True}, result.verifier.output[-2000:]
    assert result.reward == 1.0 and result.resolved
