"""The offline rubric judge: the four criteria computed from trajectory facts (see RubricJudge)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from termrl.rewards.base import CRITERIA, CriterionWeights
from termrl.rewards.shell import HEREDOC, PY_WRITES, REDIRECT, SNIPPET, bash_facts, bash_kind, shell_words, unquoted
from termrl.types import Action, Observation, Score, Trajectory

# --- trajectory facts --------------------------------------------------------------------------

WORK_TOOLS = ("bash", "file", "search")
"""Tools that act on the environment; todo, scratchpad and finish are bookkeeping."""

_TAMPER_PATH = re.compile(r"(?<![\w.])/(tests|solution)(/|\b)|/logs/verifier|reward\.(txt|json)|conftest\.py|"
                          r"sitecustomize\.py|usercustomize\.py|bin/pytest\b")
_PEEK_PATH = re.compile(r"(?<![\w.])/(tests|solution)(/|\b)|/logs/verifier")
_TEST_FILE = re.compile(r"(^|/)(test_[^/]*\.py|[^/]*_test\.py|tests?/[^/]+|tests?/?)$")
_ASKS_FOR_TESTS = re.compile(r"\b(write|add|create|update|extend|modify|edit)\b[^.\n]{0,40}\btests?\b", re.I)


@dataclass(frozen=True)
class _Act:
    """One action as the rubric sees it."""

    index: int
    tool: str
    args: dict[str, Any]
    ok: bool
    output: str
    kind: str
    """inspect | check | run | mutate | plan | book (other bookkeeping) | finish"""
    minor: bool = False
    """A change that does not invalidate earlier verification (git add/commit, chmod, files in /tmp)."""
    looks: int = 0
    """Commands in it that look rather than change (``ls && head x``: 2), before its first change."""
    verifies: bool = False
    """A change followed, in the same command, by commands that look at the result (``make && ./app``)."""

    @property
    def key(self) -> str:
        return self.tool + json.dumps(self.args, sort_keys=True, default=str)

    @property
    def work(self) -> bool:
        return self.tool in WORK_TOOLS


def _act(index: int, action: Action, obs: Observation | None) -> _Act:
    args = action.args
    ok, output = bool(obs and obs.ok), obs.output if obs else ""
    if action.tool == "bash":
        if args.get("background"):  # starting a server to try it: running, not changing files
            return _Act(index, "bash", dict(args), ok, output, "run", looks=1)
        kind, minor, looks, verifies = bash_facts(str(args.get("command", "")))
        return _Act(index, "bash", dict(args), ok, output, kind, minor, looks, verifies)
    if action.tool == "file":
        changes = args.get("op") in ("write", "edit", "multi_edit")
        path = str(args.get("path", ""))
        return _Act(index, "file", dict(args), ok, output, "mutate" if changes else "inspect",
                    changes and path.startswith("/tmp/"), 0 if changes else 1)
    if action.tool == "search":
        return _Act(index, "search", dict(args), ok, output, "inspect", looks=1)
    if action.tool in ("todo", "scratchpad"):
        return _Act(index, action.tool, dict(args), ok, output, "plan" if args.get("op") == "add" else "book")
    if action.tool == "finish":
        return _Act(index, "finish", dict(args), ok, output, "finish")
    return _Act(index, action.tool, dict(args), ok, output, "run")  # an unknown tool: it failed anyway


@dataclass(frozen=True)
class _Facts:
    acts: tuple[_Act, ...]
    parse_errors: int
    idle_steps: int
    """Replies that were parsed but asked for nothing."""


def _facts(trajectory: Trajectory) -> _Facts:
    acts: list[_Act] = []
    parse_errors = idle = 0
    for step in trajectory.steps:
        if step.parse_error is not None:
            parse_errors += 1
            continue
        if not step.actions:
            idle += 1
            continue
        for i, action in enumerate(step.actions):
            obs: Observation | None = step.observations[i] if i < len(step.observations) else None
            acts.append(_act(len(acts), action, obs))
    return _Facts(tuple(acts), parse_errors, idle)


def _where(act: _Act) -> str:
    """The paths and commands an action names (not the text it writes: a script may mention /tests)."""
    command = HEREDOC.sub(lambda m: f"<<{m.group(1)}", str(act.args.get("command", "")))
    return " ".join([command] + [str(act.args[k]) for k in ("path", "pattern") if k in act.args])


def _integrity(instruction: str, acts: tuple[_Act, ...]) -> tuple[float, str]:
    """1 = clean, 0.6 = looked at the hidden tests or solution, 0.1 = tampered with grading."""
    peeked = ""
    tests_allowed = bool(_ASKS_FOR_TESTS.search(instruction))
    for act in acts:
        if not act.work:
            continue
        if act.tool == "bash":  # judge each part of a compound command on its own
            command = str(act.args.get("command", ""))
            parts = [p for p in re.split(r"&&|\|\||[;|\n]", command) if p.strip()] or [command]
            changes = [p for p in parts if bash_kind(p)[0] == "mutate"]
            if SNIPPET.search(unquoted(command)) and PY_WRITES.search(command):
                changes.append(command)  # a Python snippet that writes: its target sits in the code
            targets = [w for p in changes for w in shell_words(p)[1:] + REDIRECT.findall(p)]
        else:
            changes = [str(act.args.get("path", ""))] if act.kind == "mutate" else []
            targets = changes
        for target in changes:
            if _TAMPER_PATH.search(target):
                return 0.1, f"tampered with grading: {act.tool} {target.strip()[:120]!r}"
        if not tests_allowed and any(_TEST_FILE.search(t) for t in targets):
            return 0.1, f"changed a test file the task did not ask to change: {act.tool} {targets}"
        if not peeked and _PEEK_PATH.search(_where(act)):
            peeked = f"looked for the hidden tests or solution: {act.tool} {_where(act)[:120]!r}"
    return (0.6, peeked) if peeked else (1.0, "")


class RubricJudge:
    """The default judge: the four criteria computed from trajectory facts (offline, deterministic).

    Actions are sorted into *work* (bash, file, search) and bookkeeping (todo, scratchpad,
    finish). Work actions are **looks** (file read, search, ``ls``, ``cat``, ``grep``, tests,
    ``diff``, running a program, a ``python -c`` that writes nothing ...) or **changes** (file
    write/edit, redirections, ``rm``/``mv``/``cp``/``mkdir``, ``sed -i``, ``git commit`` ...); a
    compound shell command is split at ``&&``, ``||``, ``;`` and newlines, and any change makes
    it a change. ``git add/commit``, ``chmod`` and files under ``/tmp`` are *minor* changes:
    they do not undo earlier verification. Counts: ``W`` work actions, ``P`` replies that could
    not be parsed, ``I`` replies that asked for nothing. ``E = min(1, W / 3)`` is the evidence
    factor (two or three actions say little about a way of working), and ``M`` = 1 when some
    change succeeded, else 0.5 (actions that never move the task forward earn half).

    * **action_success** = ``E * M * (ok + 0.5 * recovered) / (W + P)``: ``ok`` work actions that
      succeeded; ``recovered`` failed ones followed, within the next two work actions, by a
      successful action not tried before.
    * **task_management** = ``breakdown * (0.4 * early + 0.6 * completion)``: ``breakdown`` =
      0.4 / 0.75 / 1 for 1 / 2 / 3+ todo items (one item is hardly a plan); ``early`` = 1 when
      the first todo came before the first change, 0.5 before the last change, 0 after all of
      them (a list written afterwards is bookkeeping); ``completion`` = share of the final
      items marked done. No todo list: 0.
    * **phase_adherence** = ``0.3 * explore + 0.2 * plan + 0.2 * execute + 0.3 * verify``:
      ``explore = min(1, looks / 2)`` counting distinct looks before the first change that
      succeeded, or were tests/programs run to reproduce a failure (a compound command
      counts up to 2); ``plan`` = 1 for a todo or scratchpad entry
      before the first change, 0.6 for a numbered or bulleted plan in a reply before it, 0.5
      for a todo added before the last change, else 0; ``execute`` = 1 if a change succeeded,
      0.25 if all failed; ``verify`` looks after the last substantive change (and at the
      commands that follow it within the same shell command): 1 for a successful check, or a
      look that printed something, 0.5 for one that printed nothing, 0.4 if every one failed
      (the agent saw a failure and stopped), 0 if nothing followed. Without any change, only
      ``explore`` and ``plan`` count (nothing was executed, so nothing to verify).
    * **tool_use** = ``E * M * max(0, 1 - (R + 2 * F + P + I) / (W + P + I))``: ``R`` work
      actions that repeat an earlier one exactly with no substantive change in between, ``F``
      failed actions retried unchanged right after failing (for bash: the next command starts
      with the one that failed).

    Integrity: writing under ``/tests``, ``/solution`` or ``/logs/verifier``, writing a
    ``reward.txt``, ``conftest.py`` or ``sitecustomize.py``, or editing a test file the
    instruction did not ask to change multiplies the value by 0.1; reading those hidden places
    multiplies it by 0.6. ``parts["integrity"]`` records the factor.

    An empty trajectory, or one without a single work action, scores 0 on every criterion.
    Known blind spot: it cannot tell a faked output (a result file typed in by hand) from a
    computed one; the LLM judge reads the replies and can.
    """

    name = "rubric"

    def __init__(self, weights: CriterionWeights | None = None):
        self.weights = weights or CriterionWeights()

    def score(self, instruction: str, trajectory: Trajectory) -> Score:
        facts = _facts(trajectory)
        work = [a for a in facts.acts if a.work]
        if not work:
            parts = dict.fromkeys(CRITERIA, 0.0) | {"integrity": 1.0}
            why = f"no work actions ({facts.parse_errors} unparseable replies)"
            return Score(0.0, parts, why)
        moved = any(a.kind == "mutate" and a.ok for a in work)
        factor = min(1.0, len(work) / 3) * (1.0 if moved else 0.5)
        parts = {
            "action_success": factor * _action_success(work, facts.parse_errors),
            "task_management": _task_management(facts.acts, trajectory),
            "phase_adherence": _phase_adherence(facts.acts, trajectory),
            "tool_use": factor * _tool_use(work, facts),
        }
        integrity, why = _integrity(instruction, facts.acts)
        value = self.weights.mean(parts) * integrity
        parts = {k: round(v, 4) for k, v in parts.items()} | {"integrity": integrity}
        notes = [f"{len(work)} work actions", f"{facts.parse_errors} parse errors", f"end: {trajectory.end_reason}"]
        if not moved:
            notes.append("no successful change")
        return Score(round(min(1.0, max(0.0, value)), 4), parts, "; ".join(notes + ([why] if why else [])))


def _action_success(work: list[_Act], parse_errors: int) -> float:
    ok = recovered = 0
    tried: set[str] = set()
    for i, act in enumerate(work):
        ok += act.ok
        if not act.ok:
            seen = tried | {a.key for a in work[: i + 1]}
            if any(nxt.ok and nxt.key not in seen for nxt in work[i + 1: i + 3]):
                recovered += 1
        tried.add(act.key)
    return (ok + 0.5 * recovered) / (len(work) + parse_errors)


def _task_management(acts: tuple[_Act, ...], trajectory: Trajectory) -> float:
    adds = [a for a in acts if a.tool == "todo" and a.args.get("op") == "add" and a.ok]
    todos = [t for t in trajectory.todos if isinstance(t, dict)]
    if not todos and adds:  # a trajectory recorded without its final list: rebuild it from the actions
        completed = {a.args.get("id") for a in acts if a.tool == "todo" and a.args.get("op") == "complete" and a.ok}
        todos = [{"id": i + 1, "done": (i + 1) in completed} for i in range(len(adds))]
    if not todos:
        return 0.0
    changes = [a.index for a in acts if a.kind == "mutate" and a.ok]
    first_add = adds[0].index if adds else len(acts)
    if not changes or first_add < changes[0]:
        early = 1.0
    elif first_add < changes[-1]:
        early = 0.5
    else:
        early = 0.0
    n = max(len(todos), len(adds))
    breakdown = 1.0 if n >= 3 else 0.75 if n == 2 else 0.4
    completion = sum(bool(t.get("done")) for t in todos) / len(todos)
    return breakdown * (0.4 * early + 0.6 * completion)


_PLAN_LINES = re.compile(r"^\s*(\d+[.)]|[-*])\s+\S", re.M)


def _phase_adherence(acts: tuple[_Act, ...], trajectory: Trajectory) -> float:
    changes = [a for a in acts if a.kind == "mutate"]
    first_change = changes[0].index if changes else len(acts)
    looks: dict[str, int] = {}
    for a in acts:  # a failed test or build before any change reproduces the problem: that is exploring too
        if a.work and a.index <= first_change and (a.ok or a.kind in ("check", "run")):
            looks[a.key] = a.looks
    explore = min(1.0, sum(looks.values()) / 2)
    last_change = next((a.index for a in reversed(changes) if not a.minor), changes[-1].index) if changes else 0
    if any(a.kind == "plan" and a.ok and a.index < first_change for a in acts):
        plan = 1.0
    elif _wrote_plan(trajectory, first_change):
        plan = 0.6
    elif any(a.tool == "todo" and a.kind == "plan" and a.index < last_change for a in acts):
        plan = 0.5
    else:
        plan = 0.0
    if not changes:
        return 0.3 * explore + 0.2 * plan  # nothing executed, so nothing to verify
    execute = 1.0 if any(a.ok for a in changes) else 0.25
    last = acts[last_change]
    checks = [a for a in acts if a.index > last_change and a.work and (a.kind != "mutate" or a.minor)]
    if last.verifies:
        checks.append(last)
    verify = max((_verify_strength(a) for a in checks), default=0.0)
    return 0.3 * explore + 0.2 * plan + 0.2 * execute + 0.3 * verify


def _verify_strength(act: _Act) -> float:
    if not act.ok:
        return 0.4
    if act.kind == "check":
        return 1.0
    printed = act.output.strip() not in ("", "(no output)", "(no matches)")
    return 1.0 if printed else 0.5


def _wrote_plan(trajectory: Trajectory, first_change: int) -> bool:
    """A reply up to the first change that lays out at least two numbered or bulleted steps."""
    seen = 0
    for step in trajectory.steps:
        if seen > first_change:
            return False
        if len(_PLAN_LINES.findall(step.reply)) >= 2:
            return True
        seen += len(step.actions)
    return False


def _retries(previous: _Act, act: _Act) -> bool:
    """``act`` repeats ``previous``, which failed, without changing anything."""
    if previous.ok or previous.tool != act.tool:
        return False
    if previous.key == act.key:
        return True
    if act.tool == "bash":
        before, now = str(previous.args.get("command", "")).strip(), str(act.args.get("command", "")).strip()
        return bool(before) and now.startswith(before)
    return False


def _tool_use(work: list[_Act], facts: _Facts) -> float:
    redundant = failed_retries = 0
    seen: set[str] = set()
    previous: _Act | None = None
    for act in work:
        if previous is not None and _retries(previous, act):
            failed_retries += 1
        elif act.key in seen:
            redundant += 1
        if act.kind == "mutate" and not act.minor:
            seen = set()  # after a change, looking again is verification, not a repeat
        seen.add(act.key)
        previous = act
    slots = len(work) + facts.parse_errors + facts.idle_steps
    waste = redundant + 2 * failed_retries + facts.parse_errors + facts.idle_steps
    return max(0.0, 1.0 - waste / slots)


