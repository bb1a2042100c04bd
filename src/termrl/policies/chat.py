"""Chat rendering for local models: termrl's messages and tools through the model's own chat template.

Templates that render ``tools`` get them natively (tool calls as structured ``tool_calls``, tool
results as ``tool`` messages). For templates that ignore tools, the tools are described in the
system message, tool calls become ``<tool_call>`` JSON text and tool results ``<tool_response>``
user messages: the format termrl's ``tool_call`` action parser reads back.
"""

from __future__ import annotations

import json
from typing import Any

from termrl.errors import PolicyError
from termrl.types import Message


def renders_tools(tokenizer: Any, model: str) -> bool:
    """Whether the tokenizer's chat template renders ``tools`` itself.

    Raises:
        PolicyError: the tokenizer has no chat template (not a chat model).
    """
    template = tokenizer.chat_template or ""
    if not template:
        raise PolicyError(f"hf: the tokenizer of {model} has no chat template -- use an "
                          "instruction-tuned (chat) model")
    return "tools" in template


def conversation(messages: list[Message], tools: list[dict[str, Any]] | None,
                 native_tools: bool) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The messages as the dicts chat templates read, and the template's extra arguments (``tools``
    for a template that renders them; otherwise they are described in the system message)."""
    out = [_template_message(m, native_tools) for m in messages]
    kwargs: dict[str, Any] = {}
    if tools:
        if native_tools:
            kwargs["tools"] = tools
        else:
            out = _tools_in_system_message(out, tools)
    return out, kwargs


def render(tokenizer: Any, conversation: list[dict[str, Any]], template_kwargs: dict[str, Any],
           model_name: str) -> str:
    """The prompt text: the chat template applied, ending in the generation prompt.

    Raises:
        PolicyError: the model's template failed on the conversation.
    """
    try:
        return tokenizer.apply_chat_template(conversation, add_generation_prompt=True, tokenize=False,
                                             **template_kwargs)
    except Exception as exc:  # jinja errors of arbitrary types, raised by the model's own template
        raise PolicyError(f"hf: the chat template of {model_name} could not render the "
                          f"conversation ({type(exc).__name__}: {exc})") from exc


def _template_message(message: Message, native_tools: bool) -> dict[str, Any]:
    """A Message in the dict shape HF chat templates read. For templates without tool support,
    tool results become user messages and tool calls become ``<tool_call>`` text."""
    if message.role == "tool" and not native_tools:
        return {"role": "user", "content": f"<tool_response>\n{message.content}\n</tool_response>"}
    out: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_call_id:
        out["tool_call_id"] = message.tool_call_id
    if message.name:
        out["name"] = message.name
    if message.tool_calls:
        calls = [_template_call(call) for call in message.tool_calls]
        if native_tools:
            out["tool_calls"] = calls
        else:
            text = "\n".join(f"<tool_call>\n{json.dumps(c['function'], ensure_ascii=False)}\n</tool_call>"
                             for c in calls)
            out["content"] = f"{message.content}\n{text}".strip()
    return out


def _template_call(call: dict[str, Any]) -> dict[str, Any]:
    fn = call.get("function") or {}
    args: Any = fn.get("arguments", {})
    if isinstance(args, str):  # OpenAI sends a JSON string; HF templates expect a mapping
        try:
            args = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError:
            pass
    return {"type": "function", "id": call.get("id"), "function": {"name": fn.get("name"), "arguments": args}}


def _tools_in_system_message(conversation: list[dict[str, Any]], tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For chat templates that ignore ``tools``: describe them in the system message, asking for
    ``<tool_call>`` JSON replies (the format termrl's ``tool_call`` action parser reads)."""
    specs = "\n".join(json.dumps(t, ensure_ascii=False) for t in tools)
    block = ("# Tools\n\nThese functions are available. Their JSON signatures, one per line:\n"
             f"<tools>\n{specs}\n</tools>\n\n"
             "To call a function, write a JSON object with its name and arguments between <tool_call> and "
             "</tool_call> tags:\n<tool_call>\n{\"name\": \"function name\", \"arguments\": {\"argument\": \"value\"}}"
             "\n</tool_call>")
    if conversation and conversation[0]["role"] == "system":
        first = dict(conversation[0])
        first["content"] = f"{first['content']}\n\n{block}".strip()
        return [first, *conversation[1:]]
    return [{"role": "system", "content": block}, *conversation]
