"""The agent's tools against a real container: edits that fail loudly, caps, background processes."""

from __future__ import annotations

import time

import pytest

from termrl.agent.tools import TOOLS, Submitted, ToolState, run_tool
from termrl.text import head_tail as truncate


@pytest.fixture
def state(sandbox):
    return ToolState(sandbox, deadline=time.monotonic() + 300, observation_budget=600, bash_timeout=20)


def call(state, tool, **args):
    return run_tool(state, tool, args)


def test_registry_has_every_tool_with_a_schema():
    assert set(TOOLS) == {"bash", "file", "search", "todo", "scratchpad", "finish"}
    for t in TOOLS.values():
        schema = t.schema()
        assert schema["function"]["name"] == t.name and schema["function"]["parameters"]["type"] == "object"


def test_bash_state_exit_codes_and_timeout(state):
    assert call(state, "bash", command="cd /tmp && export A=1").ok
    obs = call(state, "bash", command="pwd; echo $A")
    assert obs.output.split() == ["/tmp", "1"] and obs.ok
    failed = call(state, "bash", command="ls /nope")
    assert not failed.ok and "[exit code 2]" in failed.output
    slow = call(state, "bash", command="sleep 30", timeout=1)
    assert not slow.ok and "timed out" in slow.output
    assert "empty command" in call(state, "bash", command="  ").output


def test_bash_background_process_survives_later_timeouts(state):
    obs = call(state, "bash", command="python3 -m http.server 8765 --bind 127.0.0.1", background=True)
    assert obs.ok and "background" in obs.output
    call(state, "bash", command="sleep 30", timeout=1)  # a timeout kills the shell's session...
    for _ in range(50):  # ...but not the background server (bounded wait for it to listen)
        probe = call(state, "bash", command="curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8765/")
        if probe.output.strip().startswith("200"):
            break
        time.sleep(0.1)
    assert probe.output.strip().startswith("200")


def test_observations_are_truncated_head_and_tail(state):
    obs = call(state, "bash", command="seq 1 5000")
    assert obs.truncated and obs.output.startswith("1\n2\n") and obs.output.rstrip().endswith("5000")
    assert "characters omitted" in obs.output and len(obs.output) < 700
    # the output as the sandbox returned it is kept beside it for people reading the episode (the model
    # never sees it); only the sandbox's own output cap bounds it
    full = obs.full_output
    assert full is not None and len(obs.output) < len(full) and full.rstrip().endswith("5000")
    assert full.startswith("1\n2\n") and len(full.splitlines()) > len(obs.output.splitlines())
    assert call(state, "bash", command="echo short").full_output is None
    text, cut = truncate("abc", 10)
    assert text == "abc" and not cut


def test_file_write_read_with_offset_and_limit(state):
    content = "".join(f"line {i}\n" for i in range(1, 21))
    assert call(state, "file", op="write", path="/work/notes/a.txt", content=content).ok
    obs = call(state, "file", op="read", path="/work/notes/a.txt", offset=5, limit=3)
    assert obs.ok and "     6\tline 6" in obs.output and "line 9" not in obs.output and "offset=8" in obs.output
    call(state, "bash", command="cd /work/notes")
    assert "line 1" in call(state, "file", op="read", path="a.txt").output  # relative to the shell's cwd


def test_edit_exact_unique_and_loud_failures(state):
    call(state, "file", op="write", path="/app/m.py", content="def f(a, b):\n    return a - b\n\nx = 1\nx = 1\n")
    call(state, "bash", command="chmod 755 /app/m.py")
    ok = call(state, "file", op="edit", path="/app/m.py", old="return a - b", new="return a + b")
    assert ok.ok
    assert "return a + b" in call(state, "bash", command="cat /app/m.py").output
    assert call(state, "bash", command="stat -c %a /app/m.py").output.strip() == "755"  # mode kept
    absent = call(state, "file", op="edit", path="/app/m.py", old="return a * b", new="x")
    assert not absent.ok and "not found" in absent.output
    ambiguous = call(state, "file", op="edit", path="/app/m.py", old="x = 1", new="x = 2")
    assert not ambiguous.ok and "appears 2 times" in ambiguous.output
    missing = call(state, "file", op="edit", path="/app/none.py", old="a", new="b")
    assert not missing.ok and "no such file" in missing.output
    assert not call(state, "file", op="edit", path="/app/m.py", old="", new="b").ok
    assert not call(state, "file", op="edit", path="/app/m.py", new="b").ok  # old missing


def test_multi_edit_is_all_or_nothing(state):
    call(state, "file", op="write", path="/app/c.txt", content="alpha\nbeta\ngamma\n")
    bad = call(state, "file", op="multi_edit", path="/app/c.txt",
               edits=[{"old": "alpha", "new": "ALPHA"}, {"old": "delta", "new": "DELTA"}])
    assert not bad.ok and "edits[1]" in bad.output and "no change" in bad.output
    assert call(state, "bash", command="cat /app/c.txt").output == "alpha\nbeta\ngamma\n"
    good = call(state, "file", op="multi_edit", path="/app/c.txt",
                edits=[{"old": "alpha", "new": "ALPHA"}, {"old": "gamma", "new": "GAMMA"}])
    assert good.ok and call(state, "bash", command="cat /app/c.txt").output == "ALPHA\nbeta\nGAMMA\n"
    assert not call(state, "file", op="multi_edit", path="/app/c.txt", edits=[]).ok
    assert not call(state, "file", op="multi_edit", path="/app/c.txt", edits=["x"]).ok


def test_file_metadata_directory_and_binary(state):
    call(state, "bash", command="mkdir -p /app/d && head -c 100 /dev/urandom > /app/bin && echo hi > /app/d/t")
    assert "regular file" in call(state, "file", op="metadata", path="/app/d/t").output
    assert "directory" in call(state, "file", op="read", path="/app/d").output
    assert "not UTF-8" in call(state, "file", op="read", path="/app/bin").output
    assert "unknown op" in call(state, "file", op="delete", path="/app/d/t").output


def test_search_grep_glob_ls(state):
    call(state, "bash", command="mkdir -p /s/a/b && echo 'needle here' > /s/a/b/x.py && echo other > /s/y.py")
    grep = call(state, "search", op="grep", pattern="needle", path="/s")
    assert "/s/a/b/x.py:1:needle here" in grep.output
    assert call(state, "search", op="grep", pattern="absent-thing", path="/s").output == "(no matches)"
    glob = call(state, "search", op="glob", pattern="**/*.py", path="/s")
    assert sorted(glob.output.split()) == ["a/b/x.py", "y.py"]
    assert "x.py" in call(state, "search", op="ls", path="/s/a/b").output
    many = call(state, "bash", command="for i in $(seq 500); do echo needle > /s/f$i; done")
    assert many.ok
    capped = call(state, "search", op="grep", pattern="needle", path="/s")
    assert capped.truncated or len(capped.output.splitlines()) <= 200


def test_todo_and_scratchpad(state):
    call(state, "todo", op="add", text="explore")
    call(state, "todo", op="add", text="fix")
    assert "[x] 1. explore" in call(state, "todo", op="complete", id=1).output
    assert "2. fix" not in call(state, "todo", op="delete", id=2).output
    assert not call(state, "todo", op="complete", id=9).ok
    assert state.todos == [{"id": 1, "text": "explore", "done": True}]
    call(state, "scratchpad", op="add", text="the bug is in f()")
    assert "- the bug is in f()" in call(state, "scratchpad", op="view").output


def test_finish_and_unknown_tool(state):
    with pytest.raises(Submitted) as info:
        call(state, "finish", message="all done")
    assert info.value.message == "all done"
    unknown = call(state, "python", code="1")
    assert not unknown.ok and "unknown tool" in unknown.output
    assert "must be int" in call(state, "todo", op="complete", id=[1]).output
