"""The LLM judge: the rubric asked of a model through any Policy, with robust reply parsing and retries."""

from __future__ import annotations

import json
import re
import string
from importlib import resources
from typing import Any

from termrl.errors import JudgeError, PolicyError
from termrl.policies.base import Policy
from termrl.rewards.base import CRITERIA, CriterionWeights
from termrl.text import head_tail
from termrl.types import Message, Score, Trajectory


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
    return head_tail(text.strip(), budget, sep=" ")[0]


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


