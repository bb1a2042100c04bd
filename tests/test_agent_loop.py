"""The agent loop's logic with a replayed policy, in a real container."""

from __future__ import annotations

import pytest

from termrl.agent.loop import AgentConfig, TermAgent
from termrl.errors import PolicyError
from termrl.policies.scripted import ScriptedPolicy
from termrl.tasks import load_task
from termrl.types import Generation, Message


def _seen(agent) -> list[list[Message]]:
    """The messages of every call the agent made to its ScriptedPolicy, in order."""
    return [messages for messages, _tools in agent.policy.calls]


@pytest.fixture
def task(task_factory):
    return load_task(task_factory())


def run(task, sandbox, replies, **config):
    agent = TermAgent(ScriptedPolicy(replies), AgentConfig(**config))
    return agent, agent.run(task, sandbox)


GOOD = [
    "<bash>\ncommand: ls -la /app\n</bash>\n<todo>\nop: add\ntext: write out.txt\n</todo>",
    "<file>\nop: write\npath: /app/out.txt\ncontent: |\n  done\n</file>",
    "<bash>cat /app/out.txt</bash>\n<todo>\nop: complete\nid: 1\n</todo>",
    "<finish>\nmessage: wrote done\n</finish>\n<bash>echo never runs</bash>",
]


def test_runs_until_finish_and_records_everything(task, sandbox):
    agent, outcome = run(task, sandbox, GOOD)
    traj = outcome.trajectory
    assert outcome.terminated and not outcome.truncated and outcome.error is None
    assert traj.end_reason == "finished" and traj.finish_message == "wrote done"
    assert [len(s.actions) for s in traj.steps] == [2, 1, 2, 1]
    assert traj.steps[2].observations[0].output.strip() == "done"
    assert traj.todos == ({"id": 1, "text": "write out.txt", "done": True},)
    assert sandbox.exec("cat /app/out.txt").output == "done\n"
    assert "never runs" not in str(traj.steps[3].observations)
    # The model saw the observations of earlier turns.
    assert "out.txt" in _seen(agent)[2][-1].content or "wrote" in _seen(agent)[2][-1].content
    assert traj.messages[0].role == "system" and traj.messages[1].content == task.instruction


def test_parse_errors_are_explained_and_end_the_episode(task, sandbox):
    agent, outcome = run(task, sandbox, ["I think I should look around.", "<bash>ls", "", "never used"],
                         max_parse_errors=3)
    traj = outcome.trajectory
    assert traj.end_reason == "parse_errors" and len(traj.steps) == 3
    assert all(s.parse_error for s in traj.steps)
    feedback = _seen(agent)[1][-1]
    assert feedback.role == "user" and "could not be used" in feedback.content and "<bash>" in feedback.content


def test_a_good_reply_resets_the_parse_error_count(task, sandbox):
    replies = ["oops", "<bash>true</bash>", "oops", "oops", "<finish></finish>"]
    _, outcome = run(task, sandbox, replies, max_parse_errors=3)
    assert outcome.trajectory.end_reason == "finished"


def test_max_turns_truncates(task, sandbox):
    _, outcome = run(task, sandbox, ["<bash>true</bash>"] * 5, max_turns=3)
    assert outcome.truncated and not outcome.terminated
    assert outcome.trajectory.end_reason == "max_turns"


def test_token_budget_truncates(task, sandbox):
    big = Generation(text="<bash>true</bash>", n_prompt_tokens=900, n_completion_tokens=200)
    _, outcome = run(task, sandbox, [big, big], max_total_tokens=1000)
    assert outcome.truncated and outcome.trajectory.end_reason == "max_tokens"


def test_wall_clock_truncates(task_factory, sandbox):
    task_dir = task_factory()
    toml = task_dir / "task.toml"
    toml.write_text(toml.read_text().replace("[agent]\ntimeout_sec = 60", "[agent]\ntimeout_sec = 2"))
    agent = TermAgent(ScriptedPolicy(["<bash>sleep 30</bash>", "<bash>true</bash>"]), AgentConfig())
    outcome = agent.run(load_task(task_dir), sandbox)
    traj = outcome.trajectory
    assert outcome.truncated and traj.end_reason == "timeout"
    assert "timed out" in traj.steps[0].observations[0].output


def test_policy_failure_is_recorded_not_raised(task, sandbox):
    replies = iter(["<bash>true</bash>"])

    def first_then_a_server_error(messages):
        for reply in replies:
            return reply
        raise PolicyError("server said 500")

    _, outcome = run(task, sandbox, first_then_a_server_error)
    error = outcome.error
    assert error.boundary == "policy" and "500" in error.message
    assert len(outcome.trajectory.steps) == 1


def test_token_segments_mask_model_tokens_only(task, sandbox):
    g1 = Generation(text="<bash>true</bash>", token_ids=(10, 11), logprobs=(-0.1, -0.2),
                    prompt_token_ids=(1, 2, 3), n_prompt_tokens=3, n_completion_tokens=2)
    g2 = Generation(text="<finish></finish>", token_ids=(20,), logprobs=(-0.3,),
                    prompt_token_ids=(1, 2, 3, 10, 11, 7, 8), n_prompt_tokens=7, n_completion_tokens=1)
    _, outcome = run(task, sandbox, [g1, g2])
    segs = outcome.trajectory.segments
    assert [(s.token_ids, s.trainable) for s in segs] == [((1, 2, 3), False), ((10, 11), True), ((7, 8), False),
                                                          ((20,), True)]
    assert segs[1].logprobs == (-0.1, -0.2)
    assert outcome.token_mismatches == 0


@pytest.mark.parametrize("fmt,replies", [
    ("tool_call", ['<tool_call>{"name": "bash", "arguments": {"command": "mkdir -p /app; echo done > /app/out.txt"}}</tool_call>',
                   '<tool_call>{"name": "finish", "arguments": {"message": "ok"}}</tool_call>']),
    ("bash_block", ["```bash\nmkdir -p /app; echo done > /app/out.txt\n```", "```bash\nfinish\n```"]),
])
def test_other_formats_drive_the_same_tools(task, sandbox, fmt, replies):
    agent, outcome = run(task, sandbox, replies, action_format=fmt)
    assert outcome.trajectory.end_reason == "finished"
    assert sandbox.exec("cat /app/out.txt").output == "done\n"
    assert _seen(agent)[1][-1].role in ("user", "tool")
