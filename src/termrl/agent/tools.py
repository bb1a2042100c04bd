"""The agent's tools. Each is a small function registered by name with a JSON schema;
adding a tool touches this file only.

Tools return an Observation (``ok=False`` for a failed action: the model sees why) and
raise ``Submitted`` to end the episode. Observations are truncated to the budget, keeping
head and tail with a marker.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any, Callable

from termrl.sandbox.base import Sandbox
from termrl.text import head_tail
from termrl.types import Observation


class Submitted(Exception):
    """The agent called ``finish``."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class ToolState:
    """What tools share within one episode."""

    sandbox: Sandbox
    deadline: float
    """time.monotonic() by which the agent phase ends."""
    observation_budget: int = 4000
    bash_timeout: float = 60.0
    todos: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    background: int = 0


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict[str, Any]
    run: Callable[[ToolState, dict[str, Any]], Observation]

    def schema(self) -> dict[str, Any]:
        """OpenAI function-tool shape (also what chat templates render)."""
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": self.parameters}}


TOOLS: dict[str, Tool] = {}


def tool(name: str, description: str, properties: dict[str, Any], required: list[str]):
    def register(fn: Callable[[ToolState, dict[str, Any]], Observation]) -> Callable:
        TOOLS[name] = Tool(name, description, {"type": "object", "properties": properties, "required": required}, fn)
        return fn
    return register


def _obs(state: ToolState, name: str, text: str, ok: bool) -> Observation:
    out, cut = head_tail(text, state.observation_budget)
    return Observation(tool=name, output=out, ok=ok, truncated=cut, full_output=text if cut else None)


class ToolArgError(ValueError):
    """The arguments of a call are wrong; the message tells the model how to call it."""


def _arg(args: dict[str, Any], key: str, kind: type = str, required: bool = True, default: Any = None) -> Any:
    if key not in args or args[key] is None:
        if required:
            raise ToolArgError(f"missing argument '{key}'")
        return default
    value = args[key]
    if kind is int and isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if kind is str and isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ToolArgError(f"argument '{key}' must be {kind.__name__}, got {type(value).__name__}")
    return value


def _remaining(state: ToolState) -> float:
    import time

    return max(1.0, state.deadline - time.monotonic())


def _abs(state: ToolState, path: str) -> str:
    if path.startswith("/"):
        return path
    cwd = state.sandbox.exec("pwd", timeout=10).output.strip() or "/"
    return f"{cwd.rstrip('/')}/{path}"


@tool("bash", "Run a shell command in the persistent bash session (cd and exports persist). "
      "Set background=true to start a long-running process (a server) and return at once.",
      {"command": {"type": "string"}, "timeout": {"type": "integer", "description": "seconds"},
       "background": {"type": "boolean"}}, ["command"])
def bash(state: ToolState, args: dict[str, Any]) -> Observation:
    command = _arg(args, "command")
    if not command.strip():
        raise ToolArgError("empty command")
    if args.get("background"):
        state.background += 1
        log = f"/tmp/termrl-bg-{state.background}.log"
        # setsid: a background process leaves the shell's session, so command timeouts don't kill it.
        started = state.sandbox.exec(f"(setsid nohup bash -c {shlex.quote(command)} > {log} 2>&1 & echo $!)",
                                     timeout=10)
        return _obs(state, "bash", f"started in background (pid {started.output.strip()}); output goes to {log}",
                    started.ok)
    timeout = min(float(_arg(args, "timeout", int, False, int(state.bash_timeout))), _remaining(state))
    result = state.sandbox.exec(command, timeout=timeout)
    text = result.output
    if result.timed_out:
        text += f"\n[command timed out after {timeout:.0f}s and was killed]"
    elif result.exit_code != 0:
        text += f"\n[exit code {result.exit_code}]"
    if result.shell_restarted:
        text += "\n[the shell exited and was restarted: working directory and variables were reset]"
    return _obs(state, "bash", text or "(no output)", result.ok)


def _read_text(state: ToolState, path: str) -> str:
    try:
        return state.sandbox.read_file(path).decode("utf-8")
    except FileNotFoundError:
        raise ToolArgError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ToolArgError(f"{path} is a directory (use search op=ls)") from None
    except UnicodeDecodeError:
        raise ToolArgError(f"{path} is not UTF-8 text (inspect it with bash, e.g. xxd | head)") from None


def _apply_edit(text: str, old: str, new: str, path: str) -> str:
    if not old:
        raise ToolArgError("'old' is empty: give the exact text to replace")
    count = text.count(old)
    if count == 0:
        raise ToolArgError(f"{path}: the text to replace was not found (it must match exactly, "
                           "whitespace included; read the file first)")
    if count > 1:
        raise ToolArgError(f"{path}: the text to replace appears {count} times; include more surrounding "
                           "lines so it is unique")
    return text.replace(old, new, 1)


@tool("file", "Read, write or edit a file. op=read (offset, limit in lines), write (content), "
      "edit (old -> new, exact and unique), multi_edit (edits: [{old, new}], all or nothing), metadata.",
      {"op": {"type": "string", "enum": ["read", "write", "edit", "multi_edit", "metadata"]},
       "path": {"type": "string"}, "content": {"type": "string"}, "old": {"type": "string"},
       "new": {"type": "string"}, "edits": {"type": "array", "items": {"type": "object"}},
       "offset": {"type": "integer"}, "limit": {"type": "integer"}}, ["op", "path"])
def file(state: ToolState, args: dict[str, Any]) -> Observation:
    op = _arg(args, "op")
    path = _abs(state, _arg(args, "path"))
    if op == "read":
        lines = _read_text(state, path).splitlines()
        offset = max(0, _arg(args, "offset", int, False, 0))
        limit = max(1, _arg(args, "limit", int, False, 400))
        chunk = lines[offset: offset + limit]
        body = "\n".join(f"{offset + i + 1:>6}\t{line}" for i, line in enumerate(chunk))
        more = len(lines) - offset - len(chunk)
        return _obs(state, "file", body + (f"\n[{more} more lines; use offset={offset + limit}]" if more > 0 else ""),
                    True)
    if op == "write":
        content = _arg(args, "content")
        state.sandbox.write_file(path, content)
        return _obs(state, "file", f"wrote {len(content)} characters to {path}", True)
    if op in ("edit", "multi_edit"):
        text = _read_text(state, path)
        edits = [{"old": _arg(args, "old"), "new": _arg(args, "new")}] if op == "edit" else _arg(args, "edits", list)
        if not edits:
            raise ToolArgError("'edits' is empty")
        for i, edit in enumerate(edits):
            if not isinstance(edit, dict) or not isinstance(edit.get("old"), str) or not isinstance(edit.get("new"), str):
                raise ToolArgError(f"edits[{i}] must be {{old: str, new: str}}")
            try:
                text = _apply_edit(text, edit["old"], edit["new"], path)
            except ToolArgError as exc:
                prefix = f"edits[{i}]: " if op == "multi_edit" else ""
                raise ToolArgError(f"{prefix}{exc} (no change was made)") from None
        mode = state.sandbox.exec(f"stat -c %a {shlex.quote(path)}", timeout=10).output.strip()
        state.sandbox.write_file(path, text, int(mode, 8) if mode.isdigit() else 0o644)
        return _obs(state, "file", f"applied {len(edits)} edit(s) to {path}", True)
    if op == "metadata":
        result = state.sandbox.exec(f"stat -c '%n %F %s bytes mode %a owner %U modified %y' {shlex.quote(path)}",
                                    timeout=10)
        return _obs(state, "file", result.output.strip(), result.ok)
    raise ToolArgError(f"unknown op {op!r}: use read, write, edit, multi_edit or metadata")


@tool("search", "Find things: op=grep (pattern, path: recursive, with line numbers), op=glob (pattern like "
      "'**/*.py', path), op=ls (path).",
      {"op": {"type": "string", "enum": ["grep", "glob", "ls"]}, "pattern": {"type": "string"},
       "path": {"type": "string"}}, ["op"])
def search(state: ToolState, args: dict[str, Any]) -> Observation:
    op = _arg(args, "op")
    path = shlex.quote(_arg(args, "path", str, False, "."))
    if op == "grep":
        pattern = shlex.quote(_arg(args, "pattern"))
        cmd = f"grep -rnI --exclude-dir=.git -e {pattern} -- {path} | head -n 200"
    elif op == "glob":
        pattern = _arg(args, "pattern")
        cmd = (f"cd {path} && shopt -s globstar nullglob dotglob && for f in {pattern}; do echo \"$f\"; done "
               "| head -n 200")
    elif op == "ls":
        cmd = f"ls -la -- {path}"
    else:
        raise ToolArgError(f"unknown op {op!r}: use grep, glob or ls")
    result = state.sandbox.exec(cmd, timeout=min(30.0, _remaining(state)))
    text = result.output.strip() or "(no matches)"
    return _obs(state, "search", text, result.exit_code in (0, 1) and not result.timed_out)


@tool("todo", "Keep a todo list: op=add (text), complete (id), delete (id), view.",
      {"op": {"type": "string", "enum": ["add", "complete", "delete", "view"]}, "text": {"type": "string"},
       "id": {"type": "integer"}}, ["op"])
def todo(state: ToolState, args: dict[str, Any]) -> Observation:
    op = _arg(args, "op")
    if op == "add":
        item = {"id": len(state.todos) + 1, "text": _arg(args, "text"), "done": False}
        state.todos.append(item)
    elif op in ("complete", "delete"):
        wanted = _arg(args, "id", int)
        match = [t for t in state.todos if t["id"] == wanted]
        if not match:
            raise ToolArgError(f"no todo with id {wanted} (op=view lists them)")
        if op == "complete":
            match[0]["done"] = True
        else:
            state.todos.remove(match[0])
    elif op != "view":
        raise ToolArgError(f"unknown op {op!r}: use add, complete, delete or view")
    listing = "\n".join(f"[{'x' if t['done'] else ' '}] {t['id']}. {t['text']}" for t in state.todos)
    return _obs(state, "todo", listing or "(no todos)", True)


@tool("scratchpad", "Keep notes for yourself: op=add (text), op=view.",
      {"op": {"type": "string", "enum": ["add", "view"]}, "text": {"type": "string"}}, ["op"])
def scratchpad(state: ToolState, args: dict[str, Any]) -> Observation:
    op = _arg(args, "op")
    if op == "add":
        state.notes.append(_arg(args, "text"))
        return _obs(state, "scratchpad", f"noted ({len(state.notes)} notes)", True)
    if op == "view":
        return _obs(state, "scratchpad", "\n".join(f"- {n}" for n in state.notes) or "(no notes)", True)
    raise ToolArgError(f"unknown op {op!r}: use add or view")


@tool("finish", "Stop working: the task is done (or you cannot do more). message: a short summary.",
      {"message": {"type": "string"}}, [])
def finish(state: ToolState, args: dict[str, Any]) -> Observation:
    raise Submitted(str(args.get("message", "") or ""))


def run_tool(state: ToolState, name: str, args: dict[str, Any]) -> Observation:
    """Run one action; argument errors become a failed observation (Submitted propagates)."""
    spec = TOOLS.get(name)
    if spec is None:
        return _obs(state, name, f"unknown tool {name!r}; tools: {', '.join(TOOLS)}", False)
    try:
        return spec.run(state, args)
    except ToolArgError as exc:
        return _obs(state, name, f"error: {exc}", False)
