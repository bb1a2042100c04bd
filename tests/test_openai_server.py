"""The openai policy against a real, independent OpenAI-compatible server: llama-cpp-python's
server (installed by scripts/build_llama_cpp.sh) serving the embedded SmolLM2 GGUF on loopback."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest

from termrl.errors import PolicyError
from termrl.policies import get_policy
from termrl.policies.model import embedded_gguf
from termrl.types import Message

BASH_TOOL = {"type": "function", "function": {
    "name": "bash", "description": "Run one shell command",
    "parameters": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}}}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory):
    """Starts the server on a free loopback port, waits (bounded) until it answers, stops it by pid."""
    try:
        import llama_cpp.server  # noqa: F401
    except ImportError:
        pytest.fail("llama-cpp-python's server is not installed -- run scripts/build_llama_cpp.sh "
                    "(or scripts/setup.sh)")
    port = _free_port()
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    # chatml-function-calling: SmolLM2 speaks ChatML, and this handler turns `tools` into tool_calls.
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(embedded_gguf()), "--host", "127.0.0.1",
               "--port", str(port), "--n_ctx", "2048", "--n_threads", "2", "--chat_format", "chatml-function-calling"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 90
        for _ in range(360):  # bounded in count and in time
            if proc.poll() is not None:
                pytest.fail(f"the llama-cpp server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{base_url}/models", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the llama-cpp server did not answer within 90 s:\n{log.read_text()[-3000:]}")
            time.sleep(0.25)
        yield base_url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)


def test_chat_reply_with_logprobs(llama_server):
    policy = get_policy("openai", base_url=llama_server, api_key="")  # model: asked from /models
    assert policy.model.endswith(".gguf")
    gen = policy.generate([Message("user", "What is the capital of France?")], max_tokens=8, temperature=0.7)
    assert gen.text.strip()
    assert gen.finish_reason in ("stop", "length")
    assert gen.n_prompt_tokens > 0 and 0 < gen.n_completion_tokens <= 8
    assert len(gen.logprobs) == gen.n_completion_tokens and all(lp <= 0 for lp in gen.logprobs)
    assert gen.token_ids == ()  # llama-cpp-python reports no token ids


def test_length_finish_and_concurrent_callers(llama_server):
    policy = get_policy("openai", base_url=llama_server, model="smollm2")
    results = []

    def call() -> None:
        results.append(policy.generate([Message("user", "Tell me a long story.")], max_tokens=4))

    threads = [threading.Thread(target=call) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(results) == 3
    assert all(g.finish_reason == "length" and g.n_completion_tokens == 4 for g in results)


def test_native_tool_calls_come_back_parsed(llama_server):
    policy = get_policy("openai", base_url=llama_server, model="smollm2",
                        tool_choice={"type": "function", "function": {"name": "bash"}})
    messages = [Message("system", "You operate a Linux terminal."), Message("user", "List the files in /app.")]
    gen = policy.generate(messages, tools=[BASH_TOOL], max_tokens=48, temperature=0.2)
    assert gen.tool_calls, gen
    call = gen.tool_calls[0]
    assert call["type"] == "function" and call["function"]["name"] == "bash"
    assert isinstance(call["function"]["arguments"], str) and call["id"]


def test_client_errors_are_reported_at_once(llama_server):
    wrong_path = llama_server.removesuffix("/v1") + "/not-an-api"
    start = time.monotonic()
    with pytest.raises(PolicyError, match=r"rejected with HTTP 404 Not Found"):
        get_policy("openai", base_url=wrong_path, model="smollm2").generate([Message("user", "hi")])
    assert time.monotonic() - start < 5


def test_agent_episode_through_the_server(llama_server, docker_provider, tmp_path):
    """A whole episode: the termrl agent driven by the openai backend, verified and judged."""
    from termrl.agent.loop import AgentConfig, TermAgent
    from termrl.rewards.judges import get_judge
    from termrl.rollout.episode import EpisodeConfig, run_episode
    from termrl.tasks import load_task
    from termrl.tasks.easy import generate_easy

    task = load_task(generate_easy(7, 1, tmp_path))
    agent = TermAgent(get_policy("openai", base_url=llama_server, api_key=""),
                      AgentConfig(action_format="tool_call", max_turns=2, max_tokens_per_turn=64))
    result = run_episode(task, agent, docker_provider, EpisodeConfig(judge=get_judge("rubric")))
    assert result.error is None, result.error
    assert result.verifier is not None and set(result.tests) >= {"test_answer_is_correct"}
    assert result.policy == "openai" and result.judge_score is not None
    assert 1 <= result.n_turns <= 2
