"""The verifier: run the hidden tests after the agent stops, read the reward and per-test results.

Order, and why:

1. Kill every process left from the agent phase (nothing of the agent runs during the tests).
2. Remove what the agent could have planted to subvert the tests: any /tests, /logs/verifier
   and /solution folders; sitecustomize/usercustomize modules and pytest plugin entry points
   created during the episode; pytest config and conftest.py files it created at /.
3. Copy the tests in fresh (they were never in the container before this point).
4. Run the test script as a fresh process with a clean environment: no inherited PYTHONPATH
   or user site, and pytest told not to look for conftest.py above /tests.
5. Read ``/logs/verifier/reward.txt`` (or ``reward.json``) and per-test results (JUnit XML,
   CTRF JSON, or pytest's ``-rA`` summary for Terminal-Bench 1 tasks).

A test that did not run (error, skipped, timeout, missing) counts as failed; a test script
that leaves no reward scores 0 with the reason recorded.
"""

from __future__ import annotations

import json
import re
import time
import xml.etree.ElementTree as ET

from termrl.sandbox.base import Sandbox
from termrl.types import Task, VerifierResult

LOGS = "/logs/verifier"

_SCRUB = r"""
since=@{since}
rm -rf /tests {logs} /solution
mkdir -p {logs} /logs/agent
dirs=$(ls -d /usr/lib/python3* /usr/local/lib/python3* /root/.local/lib /opt 2>/dev/null)
if [ -n "$dirs" ]; then
  find $dirs -xdev -newermt "$since" \( -name sitecustomize.py -o -name usercustomize.py \) -print -delete 2>/dev/null
  find $dirs -xdev -newermt "$since" -name entry_points.txt 2>/dev/null | while read -r f; do
    if grep -q '^\[pytest11\]' "$f"; then echo "$f"; rm -f "$f"; fi
  done
fi
for f in /conftest.py /pytest.ini /pyproject.toml /tox.ini /setup.cfg; do
  if [ -e "$f" ] && [ -n "$(find "$f" -newermt "$since" 2>/dev/null)" ]; then echo "$f"; rm -f "$f"; fi
done
true
"""

_CLEAN_ENV = ["env", "-u", "PYTHONPATH", "-u", "PYTHONSTARTUP", "-u", "PYTHONHOME", "-u", "PYTHONUSERBASE",
              "-u", "PYTEST_PLUGINS", "PYTHONNOUSERSITE=1", "PYTHONDONTWRITEBYTECODE=1",
              "PYTEST_ADDOPTS=--confcutdir=/tests -p no:cacheprovider", "TEST_DIR=/tests"]


def _short_name(name: str) -> str:
    """``tests/test_outputs.py::test_a`` and ``test_outputs.py::C::test_a`` -> ``test_a`` / ``C::test_a``."""
    return re.sub(r"^.*?\.py::", "", name.strip())


def parse_junit(text: bytes) -> dict[str, bool]:
    tests: dict[str, bool] = {}
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        return tests
    for case in root.iter("testcase"):
        name = case.get("name", "?")
        cls = (case.get("classname") or "").split(".")[-1]
        key = f"{cls}::{name}" if cls and not cls.startswith("test") else name
        bad = any(case.find(tag) is not None for tag in ("failure", "error", "skipped"))
        tests[key] = tests.get(key, True) and not bad
    return tests


def parse_ctrf(text: bytes) -> dict[str, bool]:
    try:
        data = json.loads(text)
        items = data["results"]["tests"]
    except (ValueError, KeyError, TypeError):
        return {}
    return {_short_name(str(t.get("name", "?"))): t.get("status") == "passed" for t in items if isinstance(t, dict)}


_SUMMARY = re.compile(r"^(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED)\s+(\S+::\S+)", re.M)


def parse_pytest_summary(output: str) -> dict[str, bool]:
    """Per-test outcomes from pytest's ``-rA`` short summary (Terminal-Bench 1)."""
    tests: dict[str, bool] = {}
    for status, name in _SUMMARY.findall(output):
        key = _short_name(name)
        tests[key] = tests.get(key, True) and status in ("PASSED", "XFAIL")
    return tests


def _read_reward(files: dict[str, bytes]) -> tuple[float | None, str, str | None]:
    if "reward.txt" in files:
        raw = files["reward.txt"].decode(errors="replace").strip()
        try:
            return min(1.0, max(0.0, float(raw))), "reward.txt", None
        except ValueError:
            return None, "reward.txt", f"reward.txt holds {raw[:50]!r}, not a number"
    if "reward.json" in files:
        try:
            data = json.loads(files["reward.json"])
            if isinstance(data, dict):
                data = data.get("reward", sum(v for v in data.values() if isinstance(v, (int, float))) / max(1, len(data)))
            return min(1.0, max(0.0, float(data))), "reward.json", None
        except (ValueError, TypeError):
            return None, "reward.json", "reward.json holds no number"
    return None, "none", f"the tests wrote no {LOGS}/reward.txt"


def verify(task: Task, sandbox: Sandbox, *, started_at: float, network: bool = True,
           env: dict[str, str] | None = None) -> VerifierResult:
    """Run ``task``'s tests in ``sandbox`` after the agent phase; never raises for failing tests.

    ``started_at`` is the sandbox start time (epoch seconds): files created after it are the agent's.

    Raises:
        SandboxError: the sandbox broke (infrastructure, not the agent's fault).
    """
    t0 = time.monotonic()
    sandbox.kill_all()
    sandbox.run(["sh", "-c", _SCRUB.format(since=int(started_at) - 1, logs=LOGS)], timeout=120)
    if task.tests_dir.is_dir():
        sandbox.upload_dir(task.tests_dir, "/tests")
    if task.test_script.parent != task.tests_dir:  # Terminal-Bench 1: run-tests.sh sits beside tests/
        sandbox.write_file(f"/tests/{task.test_script.name}", task.test_script.read_bytes(), 0o755)
    sandbox.set_network(network)
    extra = [f"{k}={v}" for k, v in (env or {}).items()]
    argv = [*_CLEAN_ENV, *extra, "bash", f"/tests/{task.test_script.name}"]
    result = sandbox.run(argv, timeout=task.verifier_timeout_sec)
    files = sandbox.download_dir(LOGS)

    tests: dict[str, bool] = {}
    for name, data in sorted(files.items()):
        if name.endswith(".xml"):
            tests.update(parse_junit(data))
        elif name.endswith(".json") and name != "reward.json":
            tests.update(parse_ctrf(data))
    reward, source, problem = _read_reward(files)
    if task.format == "tb1":
        tests = tests or parse_pytest_summary(result.output)
        reward, source = (1.0 if tests and all(tests.values()) else 0.0), "pytest-summary"
        problem = None if tests else "no pytest -rA summary found in the test output"
    elif reward is None and tests:
        reward, source = (1.0 if all(tests.values()) else 0.0), "per-test"
    if result.timed_out:
        reward, problem = 0.0, f"the tests timed out after [verifier] timeout_sec={task.verifier_timeout_sec:g}"
    return VerifierResult(
        reward=reward if reward is not None else 0.0,
        tests=tests,
        reward_source=source,
        exit_code=result.exit_code,
        timed_out=result.timed_out,
        output=result.output,
        duration_s=time.monotonic() - t0,
        problem=problem,
    )

