"""Judges: score HOW an agent worked, from its trajectory (the tests score WHAT it achieved).

Both judges rate the same four criteria, after Terminal-Bench-RL's judge:

=================  ======  ==================================================================
criterion          weight  question
=================  ======  ==================================================================
action_success     0.35    Did the actions run, and did the agent recover from the failures?
task_management    0.25    Did it plan with the todo list up front and keep the list current?
phase_adherence    0.25    Explore -> plan -> execute -> verify, in that order?
tool_use           0.15    Purposeful actions: no repeats, no retrying a failure unchanged?
=================  ======  ==================================================================

The value is the weighted mean of the criteria, in [0, 1].

* :class:`RubricJudge` (the default) computes them from trajectory facts: offline,
  deterministic, free. Its formulas are in its docstring.
* :class:`LLMJudge` asks a model (any :class:`~termrl.policies.base.Policy`) with the rubric
  in ``prompts/llm_judge.md`` and parses per-criterion scores from its JSON reply.

``get_judge("rubric" | "llm" | "none" | "package.module:Class")`` builds one by name.
"""

from __future__ import annotations

import importlib
import json
import re
import shlex
import string
from dataclasses import dataclass, fields
from importlib import resources
from typing import Any, Protocol, runtime_checkable

from termrl.errors import JudgeError, PolicyError
from termrl.policies.base import Policy
from termrl.types import Action, Message, Observation, Score, Trajectory


@runtime_checkable
class Judge(Protocol):
    name: str
    """Short name recorded with the score: rubric | llm | a plugin's own."""

    def score(self, instruction: str, trajectory: Trajectory) -> Score:
        """Rate how the agent worked on ``instruction``; ``Score.value`` in [0, 1], criteria in ``parts``.

        Raises:
            JudgeError: the judge could not produce a score (recorded on the episode; the
                reward then comes from the tests alone).
        """
        ...


@dataclass(frozen=True)
class CriterionWeights:
    """How the four criteria mix into a judge's value (normalised by their sum)."""

    action_success: float = 0.35
    """Actions that ran, plus half credit for failures the agent recovered from."""
    task_management: float = 0.25
    """Todo list made early, broken down, and kept up to date."""
    phase_adherence: float = 0.25
    """Explore before changing, plan, execute, verify after the last change."""
    tool_use: float = 0.15
    """No redundant actions, no unchanged retries of a failure, no unusable replies."""

    def __post_init__(self) -> None:
        values = [getattr(self, f.name) for f in fields(self)]
        if any(not isinstance(v, (int, float)) or v < 0 for v in values) or sum(values) <= 0:
            raise ValueError(f"CriterionWeights: weights must be >= 0 and not all 0, got {values} "
                             "-- fix: use e.g. the defaults 0.35/0.25/0.25/0.15")

    def mean(self, parts: dict[str, float]) -> float:
        total = sum(getattr(self, c) for c in CRITERIA)
        return sum(getattr(self, c) * parts[c] for c in CRITERIA) / total


CRITERIA = ("action_success", "task_management", "phase_adherence", "tool_use")


# --- trajectory facts --------------------------------------------------------------------------

WORK_TOOLS = ("bash", "file", "search")
"""Tools that act on the environment; todo, scratchpad and finish are bookkeeping."""

_COMMANDS = re.compile(r"&&|\|\||;|\n")
_REDIRECT = re.compile(r"(?<![<>&])\d?>>?(?!&)\s*([^\s;|&<>]+)")
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?([^\n]*)\n.*?\n\s*\1\b", re.S)
_MUTATING_WORDS = {"rm", "mv", "cp", "mkdir", "touch", "chmod", "chown", "ln", "truncate", "dd", "install", "patch",
                   "unzip", "gunzip", "gzip", "tee", "crontab", "useradd", "systemctl", "service", "rmdir", "rsync"}
_MUTATING_SUB = {"git": {"commit", "add", "checkout", "reset", "restore", "apply", "am", "cherry-pick", "merge",
                         "rebase", "stash", "revert", "switch", "rm", "mv", "tag", "clean", "init", "clone", "pull"},
                 "pip": {"install", "uninstall"}, "pip3": {"install", "uninstall"}, "npm": {"install", "ci"},
                 "apt": {"install", "remove"}, "apt-get": {"install", "remove"}}
_MINOR = {("git", "add"), ("git", "commit"), ("git", "tag")}
_READ_ONLY_WORDS = {"ls", "cat", "head", "tail", "less", "more", "find", "grep", "egrep", "rg", "wc", "file", "stat",
                    "pwd", "which", "whereis", "type", "tree", "du", "df", "env", "printenv", "ps", "id", "whoami",
                    "uname", "date", "echo", "printf", "awk", "sort", "uniq", "cut", "tr", "column", "jq", "xxd",
                    "od", "hexdump", "md5sum", "sha256sum", "zcat", "zgrep", "realpath", "readlink", "basename",
                    "dirname", "cd", "true", "nl", "comm", "sqlite3", "history", "man", "sed", "lsof", "netstat",
                    "ss", "curl", "dpkg", "apt-cache", "locale", "git", "pip", "pip3", "tar", "export", "set"}
_CHECK = re.compile(r"\b(pytest|unittest|py_compile|shellcheck|diff|cmp|make\s+(check|test)|(npm|cargo|go)\s+test|"
                    r"bash\s+-n)\b|\btest\s+-[a-z]\b|\[\s+-[a-z]\b")
_SNIPPET = re.compile(r"\bpython3?\s+(-c\b|-\s*<<)")
_PY_WRITES = re.compile(r"\.write\(|write_text|json\.dump\(|open\([^)]*['\"][wa]b?['\"]|shutil\.|os\.(rename|remove|"
                        r"replace|makedirs|mkdir|unlink)|to_csv|\.mkdir\(|\.unlink\(|\.rename\(")
_RUNNERS = {"python", "python3", "node", "ruby", "go", "cargo", "java", "gcc", "g++", "cc", "make", "bash", "sh",
            "perl", "javac", "rustc", "npm", "npx", "uv"}

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


def _words(segment: str) -> list[str]:
    try:
        words = shlex.split(segment, posix=True)
    except ValueError:
        words = segment.split()
    while words and (re.match(r"^\w+=", words[0]) or words[0] in ("sudo", "time", "nohup", "timeout", "env")):
        words = words[1:]
        if words and re.match(r"^\d+[smh]?$", words[0]):  # timeout 10 cmd
            words = words[1:]
    return words


def _unquoted(command: str) -> str:
    """The command without heredoc bodies and quoted strings (a ``>`` in Python code is no redirection)."""
    return _QUOTED.sub("''", _HEREDOC.sub(lambda m: f"<<{m.group(1)}{m.group(2)}", command))


def _pipeline_kind(pipeline: str, snippet_writes: bool) -> tuple[str, bool]:
    """(kind, minor) of one pipeline (quotes and heredoc bodies already removed)."""
    changes: list[bool] = []  # one entry per change: is it minor?
    changes += [t.startswith("/tmp/") for t in _REDIRECT.findall(pipeline) if t != "/dev/null"]
    runs = False
    for stage in re.split(r"\|", pipeline):
        words = _words(stage.strip())
        if not words:
            continue
        head = words[0].rsplit("/", 1)[-1]
        sub = words[1] if len(words) > 1 else ""
        targets = [w for w in words[1:] if not w.startswith("-")]
        if head in _MUTATING_WORDS:
            changes.append(head == "chmod" or bool(targets) and all(t.startswith("/tmp/") for t in targets))
        elif head in ("sed", "perl") and any(w.startswith("-i") for w in words[1:]):
            changes.append(False)
        elif head == "tar" and re.match(r"^-?[a-z]*x", sub):
            changes.append(False)
        elif head in _MUTATING_SUB and sub in _MUTATING_SUB[head]:
            changes.append((head, sub) in _MINOR)
        elif head in _RUNNERS or words[0].startswith("./") or head not in _READ_ONLY_WORDS:
            runs = True
    if _SNIPPET.search(pipeline) and snippet_writes:
        changes.append(False)
    if changes:
        return "mutate", all(changes)
    if _CHECK.search(pipeline) or _SNIPPET.search(pipeline):
        return "check", False  # tests, comparisons, or a one-off snippet that only looks at a result
    return ("run" if runs else "inspect"), False


def _bash_facts(command: str) -> tuple[str, bool, int, bool]:
    """(kind, minor, looks, verifies) of a shell command; a change anywhere makes it a change."""
    bare = _unquoted(command)
    writes = bool(_PY_WRITES.search(command))
    kinds = [_pipeline_kind(part, writes) for part in _COMMANDS.split(bare) if part.strip()]
    if not kinds:
        return "inspect", False, 0, False
    changed = [i for i, (kind, _) in enumerate(kinds) if kind == "mutate"]
    if not changed:
        kind = "check" if any(k == "check" for k, _ in kinds) else "run" if any(k == "run" for k, _ in kinds) \
            else "inspect"
        return kind, False, min(2, len(kinds)), False
    minor = all(kinds[i][1] for i in changed)
    return "mutate", minor, min(2, changed[0]), changed[-1] < len(kinds) - 1


def _bash_kind(command: str) -> tuple[str, bool]:
    kind, minor, _, _ = _bash_facts(command)
    return kind, minor


def _act(index: int, action: Action, obs: Observation | None) -> _Act:
    args = action.args
    ok, output = bool(obs and obs.ok), obs.output if obs else ""
    if action.tool == "bash":
        if args.get("background"):  # starting a server to try it: running, not changing files
            return _Act(index, "bash", dict(args), ok, output, "run", looks=1)
        kind, minor, looks, verifies = _bash_facts(str(args.get("command", "")))
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
    command = _HEREDOC.sub(lambda m: f"<<{m.group(1)}", str(act.args.get("command", "")))
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
            changes = [p for p in parts if _bash_kind(p)[0] == "mutate"]
            if _SNIPPET.search(_unquoted(command)) and _PY_WRITES.search(command):
                changes.append(command)  # a Python snippet that writes: its target sits in the code
            targets = [w for p in changes for w in _words(p)[1:] + _REDIRECT.findall(p)]
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


# --- the LLM judge -------------------------------------------------------------------------------

_TEMPLATE = "llm_judge.md"
_ALIASES = {
    "action_success": ("action_success", "action_output_success", "action_output", "output_success", "actions",
                       "action_outputs"),
    "task_management": ("task_management", "todo", "todos", "todo_usage", "todo_management", "todo_usage_planning",
                        "planning", "task_planning", "todo_list"),
    "phase_adherence": ("phase_adherence", "phases", "phase", "workflow", "phase_order"),
    "tool_use": ("tool_use", "tool_usage", "tool_use_effectiveness", "tool_usage_effectiveness", "tools",
                 "tool_effectiveness", "tool_selection"),
}
_ALIAS_TO_CRITERION = {alias: crit for crit, names in _ALIASES.items() for alias in names}
_EXPLANATION_KEYS = ("explanation", "reasoning", "rationale", "summary", "notes", "comment")


class JudgeReplyError(JudgeError):
    """The judge model never gave usable scores; ``raw_reply`` holds its last reply."""

    def __init__(self, message: str, raw_reply: str):
        super().__init__(message)
        self.raw_reply = raw_reply


class _ReplyProblem(ValueError):
    """What is wrong with a judge reply (told to the model on retry)."""


def _norm_key(key: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", key.lower()).strip("_")


def _number(value: Any) -> tuple[float, float | None, bool] | None:
    """(number, explicit scale or None, written as a float?) from 7, 0.7, "7", "7/10", {"score": 7}."""
    if isinstance(value, dict):
        for key in ("score", "value", "rating"):
            if key in value:
                return _number(value[key])
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return float(value), None, False
    if isinstance(value, float):
        return value, None, True
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(-?\d+(?:\.\d+)?)\s*(?:/\s*(\d+(?:\.\d+)?))?\s*", value)
        if m:
            return float(m.group(1)), (float(m.group(2)) if m.group(2) else None), "." in m.group(1)
    return None


def _json_objects(text: str) -> list[dict[str, Any]]:
    """Every JSON object in ``text`` (inside code fences or not), in order of appearance."""
    text = re.sub(r",\s*([}\]])", r"\1", text)  # tolerate trailing commas
    decoder = json.JSONDecoder()
    found: list[dict[str, Any]] = []
    pos = text.find("{")
    while pos != -1:
        try:
            obj, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            pos = text.find("{", pos + 1)
            continue
        if isinstance(obj, dict):
            found.append(obj)
        pos = text.find("{", end)
    return found


def _containers(objects: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(top-level object, object that may hold the scores): the object itself, then its nested objects."""
    out = []
    for obj in objects:
        queue = [obj]
        while queue:
            current = queue.pop(0)
            out.append((obj, current))
            queue.extend(v for v in current.values() if isinstance(v, dict))
    return out


def parse_judge_reply(text: str) -> tuple[dict[str, float], str]:
    """Per-criterion scores in [0, 1] and the explanation from a judge model's reply.

    Accepts the JSON object bare, in a code fence, or among other text; criteria at the top
    level or under ``scores``/``criteria``; common alternative names (``todo_usage``,
    ``tool_usage_effectiveness`` ...); values as numbers, numeric strings, ``"7/10"`` or
    ``{"score": 7}``. Scale: the rubric asks for 0-10. If any value is above 1, or all values
    are whole numbers (``1`` is read as 1/10), the scale is 0-10; values written as fractions
    (``0.7``) with none above 1 are read as 0-1.

    Raises:
        ValueError: no JSON object with all four criteria (the message says what is missing).
    """
    problem = ""
    for obj, container in _containers(list(reversed(_json_objects(text)))):  # the answer comes last
        raw: dict[str, tuple[float, float | None, bool]] = {}
        for key, value in container.items():
            crit = _ALIAS_TO_CRITERION.get(_norm_key(str(key)))
            num = _number(value)
            if crit and num is not None and crit not in raw:
                raw[crit] = num
        if not raw:
            continue
        missing = [c for c in CRITERIA if c not in raw]
        if missing:
            problem = problem or f"the JSON object lacks {', '.join(missing)}"
            continue
        scores = _rescale(raw)
        bad = {c: raw[c][0] for c, v in scores.items() if not 0.0 <= v <= 1.0}
        if bad:
            problem = problem or f"scores out of range 0-10: {bad}"
            continue
        explanation = next((str(obj[k]) for k in _EXPLANATION_KEYS if isinstance(obj.get(k), str)), "")
        return scores, explanation
    raise _ReplyProblem(problem or "no JSON object with the scores found in the reply")


def _rescale(raw: dict[str, tuple[float, float | None, bool]]) -> dict[str, float]:
    implicit = [(v, is_float) for v, scale, is_float in raw.values() if scale is None]
    ten = any(v > 1 for v, _ in implicit) or (bool(implicit) and not any(f for _, f in implicit))
    out = {}
    for crit, (value, scale, _) in raw.items():
        out[crit] = value / scale if scale else value / 10 if ten else value
    return out


def _short(text: str, budget: int) -> str:
    text = text.strip()
    if len(text) <= budget:
        return text
    half = budget // 2
    return f"{text[:half]} [...{len(text) - 2 * half} chars cut...] {text[-half:]}"


def render_trajectory(trajectory: Trajectory, budget: int = 24_000, reply_chars: int = 600,
                      output_chars: int = 500, arg_chars: int = 400) -> str:
    """A compact text view of a trajectory for a judge model, at most about ``budget`` characters.

    Each turn shows the reply (cut), each action with its arguments (cut) and its result
    (ok/FAILED and output, cut). Beyond the budget the middle turns are dropped (the opening,
    where exploring and planning happen, and the end, where verifying happens, matter most).
    """
    blocks: list[str] = []
    for step in trajectory.steps:
        lines = [f"[turn {step.turn}] assistant: {_short(step.reply, reply_chars)}"]
        if step.parse_error is not None:
            lines.append(f"  !! reply could not be parsed: {_short(step.parse_error, 200)}")
        for i, action in enumerate(step.actions):
            args = _short(json.dumps(action.args, ensure_ascii=False, default=str), arg_chars)
            lines.append(f"  -> {action.tool} {args}")
            if i < len(step.observations):
                obs = step.observations[i]
                status = "ok" if obs.ok else "FAILED"
                lines.append(f"     <- {status}: {_short(obs.output, output_chars)}")
        blocks.append("\n".join(lines))
    tail = [f"end reason: {trajectory.end_reason or 'unknown'}"]
    if trajectory.finish_message is not None:
        tail.append(f"finish message: {_short(trajectory.finish_message, 400)}")
    todos = [f"[{'x' if t.get('done') else ' '}] {t.get('text', '')}" for t in trajectory.todos if isinstance(t, dict)]
    tail.append("final todo list: " + ("; ".join(todos) if todos else "(none)"))
    footer = "\n".join(tail)
    room = max(0, budget - len(footer))
    if sum(len(b) + 1 for b in blocks) > room:
        head, rear, used = [], [], 0
        for block in blocks:  # 40% of the room to the opening turns
            if used + len(block) + 1 > room * 0.4:
                break
            head.append(block)
            used += len(block) + 1
        for block in reversed(blocks[len(head):]):
            if used + len(block) + 1 > room - 60:
                break
            rear.insert(0, block)
            used += len(block) + 1
        omitted = len(blocks) - len(head) - len(rear)
        blocks = head + [f"[... {omitted} turns omitted ...]"] + rear
    return "\n".join(blocks + [footer])


def _template() -> string.Template:
    return string.Template(resources.files("termrl.rewards").joinpath("prompts", _TEMPLATE).read_text("utf-8"))


class LLMJudge:
    """Asks a model to rate the trajectory on the four criteria (0-10 each, as JSON).

    The prompt is ``prompts/llm_judge.md`` with the instruction and a compact view of the
    trajectory (:func:`render_trajectory`, cut to ``budget`` characters). A reply without
    usable scores is answered with what was wrong and asked again, up to ``retries`` more
    times; a :class:`PolicyError` counts as a failed attempt too. The value is the weighted
    mean of the criteria (:class:`CriterionWeights`).
    """

    name = "llm"

    def __init__(self, policy: Policy, retries: int = 3, *, weights: CriterionWeights | None = None,
                 budget: int = 24_000, max_tokens: int = 1024, temperature: float = 0.0):
        if retries < 0:
            raise ValueError(f"LLMJudge: retries must be >= 0, got {retries}")
        self.policy = policy
        self.retries = retries
        self.weights = weights or CriterionWeights()
        self.budget = budget
        self.max_tokens = max_tokens
        self.temperature = temperature

    def prompt(self, instruction: str, trajectory: Trajectory) -> list[Message]:
        text = _template().substitute(instruction=instruction.strip(),
                                      trajectory=render_trajectory(trajectory, self.budget))
        return [Message("user", text)]

    def score(self, instruction: str, trajectory: Trajectory) -> Score:
        """Raises:
            JudgeReplyError: no usable scores after ``1 + retries`` attempts (a JudgeError; it
                carries the last raw reply).
        """
        base = self.prompt(instruction, trajectory)
        messages = list(base)
        problem, raw = "", ""
        for _ in range(1 + self.retries):
            try:
                gen = self.policy.generate(messages, max_tokens=self.max_tokens, temperature=self.temperature)
            except PolicyError as exc:
                problem, raw = f"the judge model failed: {exc}", ""
                continue
            raw = gen.text
            try:
                scores, explanation = parse_judge_reply(raw)
            except _ReplyProblem as exc:
                problem = str(exc) + (" (the reply hit max_tokens)" if gen.finish_reason == "length" else "")
                messages = base + [Message("assistant", raw), Message("user", _RETRY.format(problem=problem))]
                continue
            return Score(round(self.weights.mean(scores), 4), scores, explanation)
        raise JudgeReplyError(f"the LLM judge gave no usable scores after {1 + self.retries} attempts: {problem}; "
                              f"last reply: {_short(raw, 500)!r}", raw)


_RETRY = ("Your reply could not be used: {problem}. Reply again with only the JSON object, with a score from 0 to "
          "10 for each of action_success, task_management, phase_adherence and tool_use, and an explanation.")


# --- registry -------------------------------------------------------------------------------------

JUDGES = ("rubric", "llm", "none")


def get_judge(name: str, policy: Policy | None = None) -> Judge | None:
    """A judge by short name: ``rubric`` (default), ``llm`` (needs ``policy``), ``none`` (returns None:
    the reward comes from the tests alone), or ``package.module:Class`` for a plugin (built with
    ``policy=`` when one is given).

    Raises:
        ValueError: an unknown name, a plugin that cannot be loaded, or ``llm`` without a policy.
    """
    if name == "rubric":
        return RubricJudge()
    if name == "none":
        return None
    if name == "llm":
        if policy is None:
            raise ValueError("judge 'llm' needs a policy (the model that judges) -- fix: pass policy=, "
                             "or use the offline judge 'rubric'")
        return LLMJudge(policy)
    if ":" in name:
        module, _, attr = name.partition(":")
        try:
            cls = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise ValueError(f"cannot load judge {name!r}: {exc} -- fix: check the module:Class path") from exc
        return cls(policy=policy) if policy is not None else cls()
    raise ValueError(f"unknown judge {name!r} -- fix: use one of {', '.join(JUDGES)} or package.module:Class")
