"""Action-format parsers: well-formed replies, and at least 20 malformed ones per family."""

from __future__ import annotations

import pytest

from termrl.agent.formats import MAX_REPLY_CHARS, BashBlockFormat, FormatError, ToolCallFormat, XmlYamlFormat
from termrl.types import Generation


def parse(fmt, text, **kw):
    return fmt.parse(Generation(text=text, **kw))


# --- xml + yaml -----------------------------------------------------------------------------

XML = XmlYamlFormat()


def test_xml_several_actions_in_order():
    actions = parse(XML, "I'll look.\n<bash>\ncommand: ls /app\n</bash>\n<file>\nop: read\npath: /app/a.py\n</file>\n"
                         "<finish>\nmessage: done\n</finish>")
    assert [(a.tool, a.args) for a in actions] == [
        ("bash", {"command": "ls /app"}), ("file", {"op": "read", "path": "/app/a.py"}),
        ("finish", {"message": "done"})]


def test_xml_bare_bash_and_block_scalars():
    assert parse(XML, "<bash>ls -la | grep x: y</bash>")[0].args == {"command": "ls -la | grep x: y"}
    write = parse(XML, "<file>\nop: write\npath: /a\ncontent: |\n  line 1\n  line 2\n</file>")[0]
    assert write.args["content"] == "line 1\nline 2\n"
    assert parse(XML, "<think>hmm</think><finish></finish>")[0].tool == "finish"


XML_BAD = {
    "empty": "",
    "whitespace": "   \n\t ",
    "prose only": "I will now list the files.",
    "unclosed bash": "<bash>\ncommand: ls",
    "unclosed file": "<file>\nop: read\npath: /a",
    "mismatched close": "<bash>command: ls</file>",
    "unknown tool": "<python>print(1)</python>",
    "unknown tool 2": "<shell>\ncommand: ls\n</shell>",
    "bad yaml in file": "<file>\nop: write\npath: [unclosed\n</file>",
    "yaml tab indent": "<file>\nop: write\n\tpath: /a\n</file>",
    "list body": "<file>\n- op\n- read\n</file>",
    "number body": "<todo>\n42\n</todo>",
    "empty file tag": "<file></file>",
    "empty bash tag": "<bash>\n\n</bash>",
    "closing only": "</bash>",
    "markdown instead": "```bash\nls\n```",
    "json instead": '{"tool": "bash", "command": "ls"}',
    "tool_call format": '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>',
    "second unclosed": "<bash>ls</bash>\n<file>\nop: read\npath: /a",
    "unknown after good": "<bash>ls</bash><deploy>now</deploy>",
    "enormous": "<bash>\ncommand: echo " + "x" * (MAX_REPLY_CHARS + 10) + "\n</bash>",
    "duplicate key yaml broken": "<file>\nop: read\npath: /a: b: c\n</file>",
}


@pytest.mark.parametrize("name", sorted(XML_BAD))
def test_xml_malformed(name):
    with pytest.raises(FormatError) as info:
        parse(XML, XML_BAD[name])
    assert len(str(info.value)) > 20  # an explanation, with an example where useful


# --- native tool calls ------------------------------------------------------------------------

TC = ToolCallFormat()


def test_tool_calls_in_text_and_from_server():
    text = ('<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>\n'
            '<tool_call>{"name": "finish", "arguments": "{\\"message\\": \\"ok\\"}"}</tool_call>')
    actions = parse(TC, text)
    assert [(a.tool, a.args) for a in actions] == [("bash", {"command": "ls"}), ("finish", {"message": "ok"})]
    server = parse(TC, "", tool_calls=({"id": "c1", "type": "function",
                                         "function": {"name": "todo", "arguments": '{"op": "view"}'}},))
    assert server[0].args == {"op": "view"} and server[0].call_id == "c1"


TC_BAD = {
    "empty": "",
    "prose": "Let me check the files first.",
    "unclosed": '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}',
    "bad json": '<tool_call>{"name": "bash", "arguments": {"command": "ls"}</tool_call>',
    "single quotes": "<tool_call>{'name': 'bash', 'arguments': {'command': 'ls'}}</tool_call>",
    "trailing comma": '<tool_call>{"name": "bash", "arguments": {"command": "ls",}}</tool_call>',
    "no name": '<tool_call>{"arguments": {"command": "ls"}}</tool_call>',
    "name not string": '<tool_call>{"name": 3, "arguments": {}}</tool_call>',
    "unknown tool": '<tool_call>{"name": "python", "arguments": {"code": "1"}}</tool_call>',
    "arguments list": '<tool_call>{"name": "bash", "arguments": ["ls"]}</tool_call>',
    "arguments bad string": '<tool_call>{"name": "bash", "arguments": "{command: ls}"}</tool_call>',
    "array top": "<tool_call>[1, 2]</tool_call>",
    "empty call": "<tool_call></tool_call>",
    "xml format": "<bash>\ncommand: ls\n</bash>",
    "markdown": "```json\n{\"name\": \"bash\"}\n```",
    "good then bad": ('<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>'
                      "<tool_call>{oops}</tool_call>"),
    "enormous": '<tool_call>{"name": "bash", "arguments": {"command": "' + "y" * MAX_REPLY_CHARS + '"}}</tool_call>',
    "plain json no tags": '{"name": "bash", "arguments": {"command": "ls"}}',
    "string json": '<tool_call>"bash"</tool_call>',
    "null": "<tool_call>null</tool_call>",
    "whitespace": "\n\n  ",
    "server unknown tool": None,
}


@pytest.mark.parametrize("name", sorted(TC_BAD))
def test_tool_call_malformed(name):
    with pytest.raises(FormatError) as info:
        if TC_BAD[name] is None:
            TC.parse(Generation(text="", tool_calls=({"id": "x", "function": {"name": "rm_rf", "arguments": "{}"}},)))
        else:
            parse(TC, TC_BAD[name])
    assert len(str(info.value)) > 20


# --- one bash block ---------------------------------------------------------------------------

BB = BashBlockFormat()


def test_bash_block_and_finish():
    assert parse(BB, "Let me look:\n```bash\nls -la\ncat x\n```")[0].args == {"command": "ls -la\ncat x"}
    assert parse(BB, "```\npwd\n```")[0].tool == "bash"
    assert parse(BB, "```sh\npwd\n```")[0].tool == "bash"
    done = parse(BB, "All set.\n```bash\nfinish 'wrote the file'\n```")[0]
    assert done.tool == "finish" and done.args == {"message": "wrote the file"}


BB_BAD = {
    "empty": "",
    "prose": "I would run ls.",
    "unclosed": "```bash\nls -la\n",
    "inline code": "Run `ls -la` now",
    "two blocks": "```bash\nls\n```\n```bash\npwd\n```",
    "three blocks": "```bash\na\n```\n```bash\nb\n```\n```bash\nc\n```",
    "empty block": "```bash\n\n```",
    "whitespace block": "```bash\n   \n```",
    "xml": "<bash>ls</bash>",
    "tool call": '<tool_call>{"name": "bash"}</tool_call>',
    "fence no newline": "```ls```",
    "enormous": "```bash\necho " + "z" * MAX_REPLY_CHARS + "\n```",
    "only fences": "``````",
    "whitespace": " \n ",
    "json": '{"command": "ls"}',
    "quote block": "> ls -la",
    "indented code": "    ls -la",
    "tilde fence": "~~~bash\nls\n~~~",
    "python + bash": "```python\nprint(1)\n```\n```bash\nls\n```",
    "unclosed after text": "Here:\n```bash\nrm -rf /tmp/x",
    "html pre": "<pre>ls</pre>",
}


@pytest.mark.parametrize("name", sorted(BB_BAD))
def test_bash_block_malformed(name):
    with pytest.raises(FormatError) as info:
        parse(BB, BB_BAD[name])
    assert len(str(info.value)) > 20
