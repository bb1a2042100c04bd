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
import json
import re
import secrets
import time
import xml.etree.ElementTree as ET

from termrl.sandbox.base import Sandbox
from termrl.types import Task, VerifierResult

LOGS = "/logs/verifier"
MAX_RESULT_BYTES = 10 << 20

_CLEAN_ENV = {"PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1",
              "PYTEST_ADDOPTS": "--confcutdir=/tests -p no:cacheprovider", "TEST_DIR": "/tests"}
_UNSET = ("PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONINSPECT", "PYTEST_PLUGINS",
          "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "BASH_ENV", "ENV", "CDPATH", "GLOBIGNORE")

# $1 token, $2 seconds, $3 test script, then absolute paths of timeout, bash, find, base64.
_RUNNER = r"""
tok=$1; secs=$2; script=$3; tmo=$4; bash_=$5; find_=$6; b64=$7
unset UNSET_VARS
"$tmo" -k 5 "$secs" "$bash_" "$script" </dev/null 2>&1
rc=$?
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
"$find_" /logs/verifier -type f -size -__MAXKB__k 2>/dev/null | while IFS= read -r f; do
  printf '%s:FILE:%s
' "$tok" "${f#/logs/verifier/}"
  "$b64" -w0 < "$f"; echo
done
printf '%s:END
' "$tok"
""".replace("UNSET_VARS", " ".join(_UNSET)).replace("__MAXKB__", str(MAX_RESULT_BYTES >> 10))


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


def _frames(output: str, token: str) -> tuple[str, int | None, dict[str, bytes]]:
    """Split the runner's output: the tests' own output, their exit code, the result files.

    Only what follows the *last* ``TOKEN:RC:`` line counts: anything printed earlier (by the
    tests, or by a process writing into this exec's output) is test output.
    """
    marker = f"\n{token}:RC:"
    at = output.rfind(marker)
    if at < 0:
        return output, None, {}
    test_output, tail = output[:at], output[at + len(marker):]
    lines = tail.split("\n")
    try:
        code = int(lines[0].strip())
    except ValueError:
        code = None
    files: dict[str, bytes] = {}
    name = None
    for line in lines[1:]:
        if line.startswith(f"{token}:FILE:"):
            name = line[len(token) + 6:]
        elif line.startswith(f"{token}:END"):
            break
        elif name is not None:
            try:
                files[name] = base64.b64decode(line.strip(), validate=True)
            except ValueError:
                pass
            name = None
    return test_output, code, files


def _tail(text: str, cap: int) -> str:
    if len(text) <= cap:
        return text
    return text[: cap // 2] + f"\n[... {len(text) - cap} bytes of output omitted ...]\n" + text[-cap // 2:]


def verify(task: Task, sandbox: Sandbox, *, started_at: float, network: bool = True,
           env: dict[str, str] | None = None, integrity: bool = True) -> VerifierResult:
    """Run ``task``'s tests in ``sandbox`` after the agent phase; never raises for failing tests.

    ``started_at`` is the sandbox start time (epoch seconds). ``integrity=False`` skips the
    integrity step (for the benchmark that measures its cost; never for scoring).

    Raises:
        SandboxError: the sandbox broke (infrastructure, not the agent's fault).
    """
    from termrl.rewards.integrity import IntegrityReport, enforce, inventory

    t0 = time.monotonic()
    report = IntegrityReport()
    inv = None
    if hasattr(sandbox, "changes"):
        inv = inventory(sandbox.client, sandbox.image_id, sandbox.image_env().get("PATH", ""))
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
    sandbox.run([sh, "-c", f"rm -rf /tests {LOGS} /solution; mkdir -p {LOGS} /logs/agent"], timeout=60, raw=True,
                env={"PATH": inv.env_path} if inv and inv.env_path else None)
    if task.tests_dir.is_dir():
        sandbox.upload_dir(task.tests_dir, "/tests")
    if task.test_script.parent != task.tests_dir:  # Terminal-Bench 1: run-tests.sh sits beside tests/
        sandbox.write_file(f"/tests/{task.test_script.name}", task.test_script.read_bytes(), 0o755)
    sandbox.set_network(network)

    token = "__TERMRL_V_" + secrets.token_hex(12)
    run_env = dict(_CLEAN_ENV)
    if inv and inv.env_path:
        run_env["PATH"] = inv.env_path
    run_env.update(env or {})
    secs = max(1, int(round(task.verifier_timeout_sec)))
    argv = [sh, "-c", _RUNNER, "termrl-verify", token, str(secs), f"/tests/{task.test_script.name}",
            prog("timeout", "timeout"), prog("bash", sh), prog("find", "find"), prog("base64", "base64")]
    result = sandbox.run(argv, timeout=task.verifier_timeout_sec + 60, env=run_env, raw=True, cap=64 << 20)
    output, code, files = _frames(result.output, token)
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
    tampered = sorted(report.tampered)
    if tampered:
        reward = 0.0
        problem = (f"the agent tampered with the verification toolchain ({len(tampered)} paths, restored "
                   f"before the tests): " + "; ".join(f"{p}: {report.tampered[p]}" for p in tampered[:5]))
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
