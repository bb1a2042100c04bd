"""Action formats: how a model writes tool calls, and how the results go back to it.

* ``xml``: XML tags named after tools with YAML bodies (``<bash>command: ls</bash>``).
* ``tool_call``: native tool calls as the chat template renders them (Hermes/Qwen
  ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``), or already parsed by an
  OpenAI-compatible server; tools are described by JSON schema.
* ``bash_block``: one fenced bash block per turn, for very small models; ``finish`` ends.

A parser returns the actions of a reply in order, or raises FormatError whose message
explains the mistake with an example; the loop sends that back to the model.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

from termrl.agent.tools import TOOLS
from termrl.types import Action, Generation, Message, Observation

MAX_REPLY_CHARS = 30_000


class FormatError(Exception):
    """The reply could not be parsed; the message is shown to the model."""


def _prompt(name: str) -> str:
    return resources.files("termrl.agent").joinpath("prompts", name).read_text(encoding="utf-8")


def _tool_list() -> str:
    lines = []
    for t in TOOLS.values():
        props = ", ".join(f"{k}" + ("" if k in t.parameters["required"] else "?") for k in t.parameters["properties"])
        lines.append(f"- {t.name}({props}): {t.description}")
    return "\n".join(lines)


def _check_reply(text: str) -> None:
    if not text.strip():
        raise FormatError("your reply was empty. Reply with at least one tool call.")
    if len(text) > MAX_REPLY_CHARS:
        raise FormatError(f"your reply was {len(text)} characters long (limit {MAX_REPLY_CHARS}). "
                          "Write shorter replies; put long file contents in several smaller writes.")


def _observation_text(obs: Observation) -> str:
    status = "ok" if obs.ok else "error"
    return f"<observation tool=\"{obs.tool}\" status=\"{status}\">\n{obs.output}\n</observation>"


@dataclass
class ActionFormat:
    name: str = ""
    uses_native_tools: bool = False
    action_end: re.Pattern[str] | None = None
    """Matches a reply that holds a complete action, where nothing after it counts: generation may stop
    there (None: the format reads the whole reply, e.g. several tool tags in one turn)."""

    def system_prompt(self) -> str:
        return _prompt(f"{self.name}.md").replace("{tools}", _tool_list())

    def parse(self, generation: Generation) -> list[Action]:
        raise NotImplementedError

    def observation_messages(self, actions: list[Action], observations: list[Observation]) -> list[Message]:
        text = "\n".join(_observation_text(o) for o in observations)
        return [Message("user", text)]

    def assistant_message(self, generation: Generation) -> Message:
        return Message("assistant", generation.text, tool_calls=generation.tool_calls)


_TAG = re.compile(r"<([A-Za-z_][\w-]*)>(.*?)</\1\s*>", re.S)
_OPEN = re.compile(r"<([A-Za-z_][\w-]*)>")


class XmlYamlFormat(ActionFormat):
    """``<tool>`` tags with YAML mapping bodies; ``<bash>`` may hold the bare command."""

    EXAMPLE = "<bash>\ncommand: ls -la /app\n</bash>"

    def __init__(self) -> None:
        super().__init__("xml")

    def parse(self, generation: Generation) -> list[Action]:
        text = generation.text
        _check_reply(text)
        actions: list[Action] = []
        closed_spans = []
        for match in _TAG.finditer(text):
            name, body = match.group(1), match.group(2)
            closed_spans.append(match.span())
            if name not in TOOLS:
                if name in ("think", "thinking", "reasoning", "plan"):
                    continue
                raise FormatError(f"unknown tool <{name}>. Tools: {', '.join(TOOLS)}. Example:\n{self.EXAMPLE}")
            actions.append(Action(name, self._body(name, body)))
        for match in _OPEN.finditer(text):
            inside = any(start <= match.start() < end for start, end in closed_spans)
            if match.group(1) in TOOLS and not inside:
                raise FormatError(f"<{match.group(1)}> is not closed: end it with </{match.group(1)}>. "
                                  f"Example:\n{self.EXAMPLE}")
        if not actions:
            raise FormatError(f"no tool call found. Write one tool tag with a YAML body, e.g.\n{self.EXAMPLE}\n"
                              "and <finish>\nmessage: done\n</finish> when the task is complete.")
        return actions

    def _body(self, name: str, body: str) -> dict[str, Any]:
        stripped = body.strip("\n")
        if not stripped.strip():
            if name == "finish":
                return {}
            raise FormatError(f"<{name}> is empty. Example:\n{self.EXAMPLE}")
        try:
            data = yaml.safe_load(body if body.endswith("\n") else body + "\n")
        except yaml.YAMLError as exc:
            if name == "bash":
                return {"command": stripped.strip()}
            raise FormatError(f"the YAML inside <{name}> is invalid ({str(exc).splitlines()[0]}). Use `key: value` "
                              "lines, and `key: |` followed by indented lines for multi-line text.") from exc
        if name == "bash" and not (isinstance(data, dict) and "command" in data):
            return {"command": stripped.strip()}
        if isinstance(data, str) and name == "finish":
            return {"message": data}
        if not isinstance(data, dict):
            raise FormatError(f"the body of <{name}> must be `key: value` lines (a YAML mapping), "
                              f"got {type(data).__name__}. Example:\n{self.EXAMPLE}")
        return {str(k): v for k, v in data.items()}


_TOOL_CALL = re.compile(r"<tool_call>(.*?)</tool_call>", re.S)


class ToolCallFormat(ActionFormat):
    """Native tool calls (Hermes/Qwen ``<tool_call>`` JSON, or server-parsed ``tool_calls``)."""

    EXAMPLE = '<tool_call>\n{"name": "bash", "arguments": {"command": "ls -la /app"}}\n</tool_call>'

    def __init__(self) -> None:
        super().__init__("tool_call", uses_native_tools=True)

    def parse(self, generation: Generation) -> list[Action]:
        if generation.tool_calls:
            return [self._from_openai(call) for call in generation.tool_calls]
        text = generation.text
        _check_reply(text)
        bodies = _TOOL_CALL.findall(text)
        if not bodies:
            if "<tool_call>" in text:
                raise FormatError(f"<tool_call> is not closed with </tool_call>. Example:\n{self.EXAMPLE}")
            raise FormatError(f"no tool call found. Call a tool like this:\n{self.EXAMPLE}")
        return [self._from_json(body) for body in bodies]

    def _from_json(self, body: str) -> Action:
        try:
            data = json.loads(body.strip())
        except json.JSONDecodeError as exc:
            raise FormatError(f"the JSON inside <tool_call> is invalid ({exc.msg} at character {exc.pos}). "
                              f"Example:\n{self.EXAMPLE}") from exc
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            raise FormatError(f'a tool call needs "name" and "arguments". Example:\n{self.EXAMPLE}')
        args = data.get("arguments", data.get("parameters", {}))
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except json.JSONDecodeError as exc:
                raise FormatError(f'"arguments" must be a JSON object ({exc.msg}). Example:\n{self.EXAMPLE}') from exc
        if not isinstance(args, dict):
            raise FormatError(f'"arguments" must be a JSON object. Example:\n{self.EXAMPLE}')
        if data["name"] not in TOOLS:
            raise FormatError(f"unknown tool {data['name']!r}. Tools: {', '.join(TOOLS)}.")
        return Action(data["name"], args)

    def _from_openai(self, call: dict[str, Any]) -> Action:
        fn = call.get("function") or {}
        action = self._from_json(json.dumps({"name": fn.get("name"), "arguments": fn.get("arguments") or {}}))
        return Action(action.tool, action.args, call.get("id") or f"call_{uuid.uuid4().hex[:8]}")

    def observation_messages(self, actions: list[Action], observations: list[Observation]) -> list[Message]:
        if actions and all(a.call_id for a in actions):  # the server parsed them: answer in its shape
            return [Message("tool", o.output, tool_call_id=a.call_id, name=a.tool)
                    for a, o in zip(actions, observations)]
        text = "\n".join(f"<tool_response>\n{json.dumps({'name': o.tool, 'ok': o.ok, 'output': o.output})}\n"
                         "</tool_response>" for o in observations)
        return [Message("user", text)]


_BLOCK = re.compile(r"```(?:bash|sh|shell|console)?[ \t]*\n(.*?)```", re.S)


class BashBlockFormat(ActionFormat):
    """One fenced bash block per turn; a block holding just ``finish`` ends the episode."""

    EXAMPLE = "```bash\nls -la /app\n```"

    def __init__(self) -> None:
        super().__init__("bash_block", action_end=_BLOCK)

    def parse(self, generation: Generation) -> list[Action]:
        text = generation.text
        _check_reply(text)
        blocks = _BLOCK.findall(text)
        if not blocks:
            if "```" in text:
                raise FormatError(f"the code block is not closed with ```. Example:\n{self.EXAMPLE}")
            raise FormatError(f"no bash block found. Reply with exactly one block, e.g.\n{self.EXAMPLE}\n"
                              "and a block holding only `finish` when the task is done.")
        if len(blocks) > 1:
            raise FormatError(f"your reply has {len(blocks)} code blocks; write exactly one per turn.")
        command = blocks[0].strip()
        if not command:
            raise FormatError(f"the bash block is empty. Example:\n{self.EXAMPLE}")
        first, _, rest = command.partition(" ")
        if first == "finish" and "\n" not in command:
            return [Action("finish", {"message": rest.strip().strip("'\"")})]
        return [Action("bash", {"command": command})]

    def observation_messages(self, actions: list[Action], observations: list[Observation]) -> list[Message]:
        return [Message("user", f"Output:\n```\n{o.output}\n```") for o in observations]


FORMATS = {"xml": XmlYamlFormat, "tool_call": ToolCallFormat, "bash_block": BashBlockFormat}


def get_format(name: str) -> ActionFormat:
    if name not in FORMATS:
        raise ValueError(f"unknown action format {name!r}: use one of {', '.join(FORMATS)}")
    return FORMATS[name]()
