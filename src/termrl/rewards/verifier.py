"""The verifier: run the hidden tests after the agent stops, read the reward and per-test results.

Order, and why (the threat model is in the README: the agent is root in its container):

1. Integrity (``termrl.rewards.integrity``): diff the container against its image through the
   Docker API, copy back every image file of the verification toolchain the agent changed or
   deleted, delete what it added to shadow one. Nothing in the container runs before this.
2. Stop the agent's processes, except those serving something (a listening socket) with their
   workers and supervisors: a service the agent started is often the deliverable.
3. Integrity again: anything raced in between 1 and 2 is undone too. Paths found in either
   pass are the episode's ``tampered`` list; a tampered episode scores 0.
4. Copy the tests in fresh to /tests (they were never in the container before), empty
   /logs/verifier.
5. One ``docker exec`` of the image's own ``/bin/sh`` (restored, by absolute path) runs the
   test script under ``timeout`` with a fixed environment (the image's PATH; no PYTHONPATH,
   user site, loader variables or inherited pytest options), then kills every other process
   in the container (test helpers, daemons, the kept services: nothing outlives the tests),
   and only then prints the result files over that exec's own output, framed by a random
   token. What any process does after the test script ends cannot reach the verdict.
6. Parse the reward (``reward.txt`` / ``reward.json``) and per-test results (JUnit XML, CTRF
   JSON, or pytest's ``-rA`` summary for Terminal-Bench 1 tasks).

A test that did not run (error, skipped, timeout, missing) counts as failed; a test script
that leaves no reward scores 0 with the reason recorded.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from termrl.rewards.integrity import PYTEST_CONFIGS
from termrl.sandbox.base import Sandbox
from termrl.types import Task, VerifierResult

LOGS = "/logs/verifier"
MAX_RESULT_BYTES = 10 << 20

_CLEAN_ENV = {"PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1",
              "PYTEST_ADDOPTS": "--confcutdir=/tests -p no:cacheprovider", "TEST_DIR": "/tests"}
_UNSET = ("PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONINSPECT", "PYTEST_PLUGINS",
          "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "BASH_ENV", "ENV", "CDPATH", "GLOBIGNORE")

# $1 token, $2 seconds, $3 test script, then absolute paths of timeout, bash, find, base64, md5sum.
_RUNNER = r"""
tok=$1; secs=$2; script=$3; tmo=$4; bash_=$5; find_=$6; b64=$7; md5=$8
unset UNSET_VARS
"$tmo" -k 5 "$secs" "$bash_" "$script" </dev/null 2>&1
rc=$?
: > /logs/.termrl-end-$tok
__sweep() {
  __n=0
  for __sig in STOP STOP KILL KILL; do
    for __d in /proc/[0-9]*; do
      __p=${__d#/proc/}
      [ "$__p" = 1 ] && continue
      [ "$__p" = "$$" ] && continue
      [ -d "$__d" ] || continue
      kill -$__sig "$__p" 2>/dev/null && [ "$__sig" = KILL ] && __n=$((__n+1))
    done
  done
}
__i=0
while [ $__i -lt 10 ]; do __sweep; [ "$__n" = 0 ] && break; __i=$((__i+1)); done
printf '
%s:RC:%d
' "$tok" "$rc"
"$find_" /logs/verifier -newer /logs/.termrl-end-$tok 2>/dev/null | while IFS= read -r f; do printf '%s:LATE:%s
' "$tok" "$f"; done
"$find_" __ROOT_CONFIGS__ -maxdepth 0 -newer /logs/.termrl-start-$tok 2>/dev/null | while IFS= read -r f; do printf '%s:LATE:%s
' "$tok" "$f"; done
"$find_" /tests -type f -exec "$md5" {} + 2>/dev/null | while IFS= read -r l; do printf '%s:SUM:%s
' "$tok" "$l"; done
"$find_" /logs/verifier -type f -size -__MAXKB__k 2>/dev/null | while IFS= read -r f; do
  printf '%s:FILE:%s
' "$tok" "${f#/logs/verifier/}"
  "$b64" -w0 < "$f"; echo
done
printf '%s:END
' "$tok"
""".replace("UNSET_VARS", " ".join(_UNSET)).replace("__ROOT_CONFIGS__", " ".join(PYTEST_CONFIGS)).replace("__MAXKB__", str(MAX_RESULT_BYTES >> 10))


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


@dataclass
class _Run:
    """What the runner printed after the test script: its exit code, the result files, and the audit."""

    output: str
    code: int | None = None
    files: dict[str, bytes] = field(default_factory=dict)
    late: list[str] = field(default_factory=list)
    """Files under /logs/verifier changed after the test script had ended (by some other process)."""
    sums: dict[str, str] = field(default_factory=dict)
    """/tests path -> md5 after the run."""


def _frames(output: str, token: str) -> _Run:
    """Split the runner's output: the tests' own output, their exit code, the result files, the audit.

    Only what follows the *last* ``TOKEN:RC:`` line counts: anything printed earlier (by the
    tests, or by a process writing into this exec's output) is test output.
    """
    marker = f"\n{token}:RC:"
    at = output.rfind(marker)
    if at < 0:
        return _Run(output)
    test_output, tail = output[:at], output[at + len(marker):]
    lines = tail.split("\n")
    try:
        code = int(lines[0].strip())
    except ValueError:
        code = None
    run = _Run(test_output, code)
    files = run.files
    name = None
    for line in lines[1:]:
        if line.startswith(f"{token}:LATE:"):
            run.late.append(line[len(token) + 6:])
        elif line.startswith(f"{token}:SUM:"):
            digest, _, path = line[len(token) + 5:].partition("  ")
            run.sums[path] = digest
        elif line.startswith(f"{token}:FILE:"):
            name = line[len(token) + 6:]
        elif line.startswith(f"{token}:END"):
            break
        elif name is not None:
            try:
                files[name] = base64.b64decode(line.strip(), validate=True)
            except ValueError:
                pass
            name = None
    return run


def _tail(text: str, cap: int) -> str:
    if len(text) <= cap:
        return text
    return text[: cap // 2] + f"\n[... {len(text) - cap} bytes of output omitted ...]\n" + text[-cap // 2:]


# pytest's last line: "===== 1 failed, 2 passed in 0.12s =====" (or without the rules under -q).
_PYTEST_SUMMARY = re.compile(r"^=*\s*((?:\d+ [a-z]+(?:, )?)+) in [0-9.]+s\b.*$", re.M)
_FAILED = re.compile(r"\b([1-9]\d*) (failed|errors?)\b")
_RUN_CONFIGS = ("conftest.py", "pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml", ".pytest.ini")


def _audit(task: Task, run: _Run, tests: dict[str, bool], reward: float | None) -> dict[str, str]:
    """Signs that a process the agent left running (a kept service) changed the run: path -> why.

    Services stay up through the tests (they are often the deliverable), so they could write the
    verdict, or change the tests under pytest. After the test script the runner stops everything and
    reports: result files changed after the script ended, and the digests of /tests. A full score
    is also checked against the last summary line pytest printed into this exec's output.
    """
    found: dict[str, str] = {}
    for path in run.late:
        found[path] = ("a pytest configuration written during the tests" if path in PYTEST_CONFIGS else
                       "changed after the test script had ended (by a process the agent left running)")
    if run.sums:  # absent when the runner did not finish (a timeout): nothing to compare
        uploaded = _tests_digests(task)
        for path, digest in uploaded.items():
            if run.sums.get(path) != digest:
                found[path] = ("changed during the tests" if path in run.sums else "deleted during the tests")
        for path in run.sums.keys() - uploaded.keys():
            if path.rsplit("/", 1)[-1] in _RUN_CONFIGS:
                found[path] = "a pytest configuration file added to /tests during the tests"
    if reward is not None and reward >= 1.0 and task.format != "tb1":
        # The last summary line is the outer pytest's (-rA may show a nested run's output before it).
        summaries = [m.group(1) for m in _PYTEST_SUMMARY.finditer(run.output)]
        if summaries and _FAILED.search(summaries[-1]):
            found[f"{LOGS}/reward.txt"] = (f"full reward written, but pytest reported '{summaries[-1]}' in the test "
                                           "output (the results were overwritten by another process)")
    return found


def _tests_digests(task: Task) -> dict[str, str]:
    """/tests path -> md5 of every file the verifier uploads."""
    out = {}
    if task.tests_dir.is_dir():
        for path in sorted(task.tests_dir.rglob("*")):
            if path.is_file() and not path.is_symlink():
                out["/tests/" + path.relative_to(task.tests_dir).as_posix()] = hashlib.md5(path.read_bytes()).hexdigest()
    if task.test_script.parent != task.tests_dir:
        out[f"/tests/{task.test_script.name}"] = hashlib.md5(task.test_script.read_bytes()).hexdigest()
    return out


def verify(task: Task, sandbox: Sandbox, *, started_at: float, network: bool = True,
           env: dict[str, str] | None = None, integrity: bool = True) -> VerifierResult:
    """Run ``task``'s tests in ``sandbox`` after the agent phase; never raises for failing tests.

    ``started_at`` is the sandbox start time (epoch seconds). ``integrity=False`` skips the
    integrity step (for the benchmark that measures its cost; never for scoring).

    Raises:
        SandboxError: the sandbox broke (infrastructure, not the agent's fault).
    """
    from termrl.rewards.integrity import IntegrityReport, enforce

    t0 = time.monotonic()
    report = IntegrityReport()
    inv = None
    if hasattr(sandbox, "changes"):
        inv = sandbox.image_inventory()
        workdirs = tuple(d for d in (sandbox.image_workdir(), task.environment.workdir) if d)
        if integrity:
            enforce(sandbox, inv, report, workdirs=workdirs)
        sandbox.stop_agent_processes(ls=inv.program("ls") or "ls")
        if integrity:
            enforce(sandbox, inv, report, workdirs=workdirs)
    else:
        sandbox.kill_all()
    prog = (lambda name, fallback: (inv.program(name) if inv else None) or fallback)
    sh = prog("sh", "/bin/sh")
    token = "__TERMRL_V_" + secrets.token_hex(12)
    # The start marker: a pytest configuration at / newer than it was written while the tests were set up or ran.
    sandbox.run([sh, "-c", f"rm -rf /tests {LOGS} /solution; mkdir -p {LOGS} /logs/agent; "
                 f": > /logs/.termrl-start-{token}"], timeout=60, raw=True,
                env={"PATH": inv.env_path} if inv and inv.env_path else None)
    if task.tests_dir.is_dir():
        sandbox.upload_dir(task.tests_dir, "/tests")
    if task.test_script.parent != task.tests_dir:  # Terminal-Bench 1: run-tests.sh sits beside tests/
        sandbox.write_file(f"/tests/{task.test_script.name}", task.test_script.read_bytes(), 0o755)
    sandbox.set_network(network)

    run_env = dict(_CLEAN_ENV)
    if inv and inv.env_path:
        run_env["PATH"] = inv.env_path
    run_env.update(env or {})
    secs = max(1, int(round(task.verifier_timeout_sec)))
    argv = [sh, "-c", _RUNNER, "termrl-verify", token, str(secs), f"/tests/{task.test_script.name}",
            prog("timeout", "timeout"), prog("bash", sh), prog("find", "find"), prog("base64", "base64"),
            prog("md5sum", "md5sum")]
    result = sandbox.run(argv, timeout=task.verifier_timeout_sec + 60, env=run_env, raw=True, cap=64 << 20)
    run = _frames(result.output, token)
    output, code, files = run.output, run.code, run.files
    # timeout(1) answers 124 (or 137 after -k); the runner itself never finishing counts as a timeout too.
    timed_out = code is None or (code in (124, 137) and result.duration_s >= task.verifier_timeout_sec)
    output = _tail(output, 128_000)

    tests: dict[str, bool] = {}
    for name, data in sorted(files.items()):
        if name.endswith(".xml"):
            tests.update(parse_junit(data))
        elif name.endswith(".json") and name != "reward.json":
            tests.update(parse_ctrf(data))
    reward, source, problem = _read_reward(files)
    if task.format == "tb1":
        tests = tests or parse_pytest_summary(output)
        reward, source = (1.0 if tests and all(tests.values()) else 0.0), "pytest-summary"
        problem = None if tests else "no pytest -rA summary found in the test output"
    elif reward is None and tests:
        reward, source = (1.0 if all(tests.values()) else 0.0), "per-test"
    if timed_out:
        reward, problem = 0.0, f"the tests timed out after [verifier] timeout_sec={task.verifier_timeout_sec:g}"
    for path, why in _audit(task, run, tests, reward).items():  # a process kept alive (a service) forged the run
        report.tampered.setdefault(path, why)
    tampered = sorted(report.tampered)
    if tampered:
        reward = 0.0
        problem = (f"the agent tampered with the verification ({len(tampered)} paths; toolchain files were "
                   f"restored before the tests): " + "; ".join(f"{p}: {report.tampered[p]}" for p in tampered[:5]))
    return VerifierResult(
        reward=reward if reward is not None else 0.0,
        tests=tests,
        reward_source=source,
        exit_code=code,
        timed_out=timed_out,
        output=output,
        duration_s=time.monotonic() - t0,
        problem=problem,
        tampered=tuple(tampered),
        integrity_s=report.seconds,
    )
