"""The model backends: scripted (logic), hf (the real embedded SmolLM2), openai (retry and
parsing logic against a tiny loopback HTTP stub; the real server is in test_openai_server.py)."""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from termrl.errors import PolicyError
from termrl.policies import ScriptedPolicy, get_policy
from termrl.policies.model import embedded_gguf, resolve_model
from termrl.types import Generation, Message

BASH_TOOL = {"type": "function", "function": {
    "name": "bash", "description": "Run one shell command in the task container",
    "parameters": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}}}


# --- scripted --------------------------------------------------------------------------------

def test_scripted_replays_text_and_generations_in_order():
    call = {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}
    policy = ScriptedPolicy(["first", Generation(text="", tool_calls=(call,), finish_reason="length")])
    msgs = [Message("user", "hi")]
    assert policy.generate(msgs) == Generation(text="first")
    second = policy.generate(msgs, tools=[BASH_TOOL])
    assert second.tool_calls == (call,) and second.finish_reason == "length"
    assert policy.remaining == 0
    assert policy.calls[1] == (msgs, [BASH_TOOL])


def test_scripted_out_of_replies_is_a_policy_error():
    policy = ScriptedPolicy(["only"])
    policy.generate([Message("user", "hi")])
    with pytest.raises(PolicyError, match="ran out of replies: all 1 were used"):
        policy.generate([Message("user", "again")])


def test_scripted_function_sees_the_messages():
    policy = ScriptedPolicy(lambda messages: f"echo {messages[-1].content}")
    assert policy.generate([Message("user", "one")]).text == "echo one"
    failing = ScriptedPolicy(lambda messages: 1 / 0)
    with pytest.raises(PolicyError, match="ZeroDivisionError"):
        failing.generate([Message("user", "x")])
    with pytest.raises(TypeError, match="reply 1 is a int"):
        ScriptedPolicy(["ok", 3])  # type: ignore[list-item]


def test_scripted_is_thread_safe():
    policy = ScriptedPolicy([str(i) for i in range(40)])
    got: list[str] = []
    lock = threading.Lock()

    def worker():
        for _ in range(10):
            text = policy.generate([Message("user", "x")]).text
            with lock:
                got.append(text)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got, key=int) == [str(i) for i in range(40)]


def test_registry_names_and_plugin_paths():
    assert get_policy("scripted", replies=["a"]).generate([]).text == "a"
    plugin = get_policy("termrl.policies.scripted:ScriptedPolicy", replies=["b"])
    assert plugin.name == "scripted" and plugin.generate([]).text == "b"
    with pytest.raises(PolicyError, match="unknown policy 'nope'"):
        get_policy("nope")
    with pytest.raises(PolicyError, match="cannot import no_such_module"):
        get_policy("no_such_module:Thing")
    with pytest.raises(PolicyError, match="bad settings"):
        get_policy("scripted", bogus=1)


# --- model location --------------------------------------------------------------------------

def test_embedded_model_is_found_and_bad_paths_are_explained(tmp_path):
    gguf = embedded_gguf()
    assert gguf.suffix == ".gguf" and gguf.stat().st_size > 50_000_000
    assert resolve_model(None).path == gguf
    assert resolve_model(str(gguf)).gguf_file == gguf.name
    with pytest.raises(PolicyError, match="no such file or folder"):
        resolve_model(tmp_path / "missing")
    (tmp_path / "weights.bin").write_bytes(b"x")
    with pytest.raises(PolicyError, match="must be a .gguf file"):
        resolve_model(tmp_path / "weights.bin")
    with pytest.raises(PolicyError, match="no config.json"):
        resolve_model(tmp_path)


# --- hf: the real embedded SmolLM2 --------------------------------------------------------------

@pytest.fixture(scope="session")
def hf_policy():
    """Loaded once per test session (about 15 s); the batch window is wide so that threads
    started together reliably share a batch on a busy 2-core machine."""
    return get_policy("hf", batch_window_s=0.2)


def test_hf_generates_text_with_token_ids_and_logprobs(hf_policy):
    messages = [Message("user", "Name one colour.")]
    gen = hf_policy.generate(messages, max_tokens=24, temperature=0.7)
    assert gen.text.strip()
    assert len(gen.token_ids) == len(gen.logprobs) == gen.n_completion_tokens > 0
    assert all(lp <= 0.0 for lp in gen.logprobs)
    assert list(gen.prompt_token_ids) == hf_policy.prompt_token_ids(messages)
    assert gen.n_prompt_tokens == len(gen.prompt_token_ids)
    assert gen.finish_reason in ("stop", "length")
    if gen.finish_reason == "stop":  # the stop token is part of the sampled (trainable) sequence
        assert gen.token_ids[-1] in hf_policy._engine.stop_ids


def test_hf_logprobs_are_those_of_the_sampling_distribution(hf_policy):
    """Recompute log_softmax(logits / T) with one forward pass over prompt + completion."""
    import torch

    temperature = 0.8
    gen = hf_policy.generate([Message("user", "Say hello.")], max_tokens=12, temperature=temperature)
    ids = torch.tensor([list(gen.prompt_token_ids) + list(gen.token_ids)], device=hf_policy.model.device)
    with torch.inference_mode():
        logits = hf_policy.model(input_ids=ids).logits[0].float().cpu()
    n = len(gen.prompt_token_ids)
    steps = torch.log_softmax(logits[n - 1:-1] / temperature, dim=-1)
    expected = steps.gather(1, torch.tensor(gen.token_ids).unsqueeze(1)).squeeze(1)
    assert torch.allclose(expected, torch.tensor(gen.logprobs), atol=2e-3)


def test_hf_finish_reason_length_when_max_tokens_is_hit(hf_policy):
    gen = hf_policy.generate([Message("user", "Tell me a long story about a dragon.")], max_tokens=3)
    assert gen.finish_reason == "length"
    assert len(gen.token_ids) == len(gen.logprobs) == 3
    assert not set(gen.token_ids) & set(hf_policy._engine.stop_ids)


def test_hf_top_k_one_and_tiny_top_p_sample_the_greedy_token(hf_policy):
    messages = [Message("user", "What is the capital of France?")]
    greedy = hf_policy.generate(messages, max_tokens=5, temperature=0)
    for setting in ({"top_k": 1}, {"top_p": 1e-6}):
        narrow = get_policy("hf", batch_window_s=0.2, **setting)
        gen = narrow.generate(messages, max_tokens=5, temperature=1.0)
        assert gen.token_ids == greedy.token_ids, setting
        assert all(lp == pytest.approx(0.0, abs=1e-6) for lp in gen.logprobs)  # a one-token distribution


def test_hf_batches_concurrent_callers(hf_policy):
    prompts = ["Count to three.", "Name a fruit.", "What is 2 + 2?"]
    results: dict[int, Generation] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(len(prompts))

    def call(i: int) -> None:
        start.wait()
        try:
            results[i] = hf_policy.generate([Message("user", prompts[i])], max_tokens=6 + i, temperature=0)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    before = hf_policy.stats()
    threads = [threading.Thread(target=call, args=(i,)) for i in range(len(prompts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    after = hf_policy.stats()
    assert not errors
    assert after["requests"] - before["requests"] == 3
    assert after["batches"] - before["batches"] < 3, "concurrent requests were not batched"
    for i, prompt in enumerate(prompts):
        alone = hf_policy.generate([Message("user", prompt)], max_tokens=6 + i, temperature=0)
        got = results[i]
        assert got.prompt_token_ids == alone.prompt_token_ids  # each caller got its own answer
        assert len(got.token_ids) <= 6 + i
        assert got.token_ids == alone.token_ids  # left padding does not change the result
        assert got.logprobs == pytest.approx(alone.logprobs, abs=1e-3)


def test_hf_stops_at_the_end_of_the_action(hf_policy):
    """With the bash_block format's ``action_end``, generation ends at the token that closes the
    first block: the reply is a prefix of the unstopped one (same greedy tokens, fewer of them),
    text and tokens agree, and a row without ``stop_at`` in the same batch runs on."""
    from termrl.agent.formats import get_format

    fmt = get_format("bash_block")
    messages = [Message("system", fmt.system_prompt()), Message("user", "Show the files in /app. Run: ls -la /app")]
    free = hf_policy.generate(messages, max_tokens=80, temperature=0)
    assert fmt.action_end.search(free.text), free.text  # the model does write a block here
    results: dict[str, Generation] = {}
    start = threading.Barrier(2)

    def call(name: str, stop_at) -> None:
        start.wait()
        results[name] = hf_policy.generate(messages, max_tokens=80, temperature=0, stop_at=stop_at)

    threads = [threading.Thread(target=call, args=("stopped", fmt.action_end)),
               threading.Thread(target=call, args=("free", None))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    stopped = results["stopped"]
    assert stopped.finish_reason == "stop"
    assert len(stopped.token_ids) < len(free.token_ids)
    assert stopped.token_ids == free.token_ids[:len(stopped.token_ids)]
    assert len(stopped.logprobs) == len(stopped.token_ids) == stopped.n_completion_tokens
    assert stopped.text == hf_policy._engine.decode(list(stopped.token_ids))
    assert fmt.action_end.search(stopped.text)  # the block is complete ...
    shorter = hf_policy._engine.decode(list(stopped.token_ids[:-1]))
    assert not fmt.action_end.search(shorter)  # ... and was not one token earlier
    assert [a.tool for a in fmt.parse(stopped)] == ["bash"]  # one block: free.text may hold two
    assert results["free"].token_ids == free.token_ids  # the row without stop_at ran to its own end


def test_hf_renders_tools_into_the_prompt(hf_policy):
    messages = [Message("system", "You are a terminal agent."), Message("user", "List /app.")]
    prompt = hf_policy.tokenizer.decode(hf_policy.prompt_token_ids(messages, tools=[BASH_TOOL]))
    assert "Run one shell command in the task container" in prompt
    assert '"name": "bash"' in prompt and "<tool_call>" in prompt
    assert prompt.index("You are a terminal agent.") < prompt.index("<tools>")
    # history with native tool calls and tool results renders too
    call = {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls /app"}'}}
    history = [*messages, Message("assistant", "", tool_calls=(call,)),
               Message("tool", "a.txt", tool_call_id="c1", name="bash")]
    rendered = hf_policy.tokenizer.decode(hf_policy.prompt_token_ids(history, tools=[BASH_TOOL]))
    assert '"command": "ls /app"' in rendered and "a.txt" in rendered


def test_hf_context_guard(hf_policy):
    small = get_policy("hf", max_context_tokens=64)
    long_prompt = [Message("user", "word " * 200)]
    with pytest.raises(PolicyError, match=r"the prompt is \d+ tokens but .* context holds 64"):
        small.generate(long_prompt)
    short = [Message("user", "Hi")]
    room = 64 - len(small.prompt_token_ids(short))
    gen = small.generate(short, max_tokens=500, temperature=0)  # clipped to the room left
    assert len(gen.token_ids) <= room
    with pytest.raises(PolicyError, match="temperature must be >= 0"):
        hf_policy.generate(short, temperature=-1)


def test_hf_missing_model_path_is_a_policy_error(tmp_path):
    with pytest.raises(PolicyError, match="no such file or folder"):
        get_policy("hf", model=str(tmp_path / "nowhere"))


# --- openai: logic against a loopback stub ---------------------------------------------------------

def _ok_body(text: str = "hello") -> dict:
    tokens = [{"token": "hel", "logprob": -0.5}, {"token": "lo", "logprob": -0.25}]
    return {"choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop",
                         "logprobs": {"content": tokens}}],
            "usage": {"prompt_tokens": 7, "completion_tokens": 2}}


class _Stub:
    """A loopback HTTP server answering from a script of (status, body, headers)."""

    def __init__(self, script: list[tuple[int, dict | str, dict]]):
        self.script = list(script)
        self.requests: list[tuple[str, dict | None]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                stub.requests.append((self.path, body))
                status, payload, headers = stub.script.pop(0) if len(stub.script) > 1 else stub.script[0]
                data = (payload if isinstance(payload, str) else json.dumps(payload)).encode()
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _answer

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def stub():
    made: list[_Stub] = []

    def make(*script: tuple[int, dict | str, dict]) -> _Stub:
        made.append(_Stub(list(script)))
        return made[-1]

    yield make
    for s in made:
        s.close()


def _policy(url: str, **kw):
    return get_policy("openai", base_url=url, api_key="", model="m", backoff_s=0.01, max_backoff_s=0.05, **kw)


def test_openai_retries_429_and_5xx_then_succeeds(stub):
    server = stub((503, {"error": "busy"}, {}), (429, {"error": "slow down"}, {"Retry-After": "0"}),
                  (200, _ok_body(), {}))
    gen = _policy(server.url, max_retries=3).generate([Message("user", "hi")], max_tokens=5)
    assert gen.text == "hello" and gen.logprobs == (-0.5, -0.25)
    assert gen.n_prompt_tokens == 7 and gen.n_completion_tokens == 2 and gen.token_ids == ()
    assert len(server.requests) == 3
    path, body = server.requests[-1]
    assert path == "/v1/chat/completions"
    assert body["logprobs"] is True and body["max_tokens"] == 5 and body["messages"] == [{"role": "user",
                                                                                          "content": "hi"}]


def test_openai_gives_up_after_bounded_retries(stub):
    server = stub((500, {"error": "boom"}, {}))
    start = time.monotonic()
    with pytest.raises(PolicyError, match=r"failed after 3 attempt\(s\).*HTTP 500.*boom"):
        _policy(server.url, max_retries=2).generate([Message("user", "hi")])
    assert len(server.requests) == 3 and time.monotonic() - start < 5


def test_openai_4xx_fails_at_once_with_status_and_body(stub):
    server = stub((400, {"error": {"message": "model 'm' does not exist"}}, {}))
    with pytest.raises(PolicyError, match=r"HTTP 400 Bad Request: .*model 'm' does not exist"):
        _policy(server.url).generate([Message("user", "hi")])
    assert len(server.requests) == 1


def test_openai_drops_logprobs_when_the_server_rejects_them(stub):
    server = stub((400, {"error": "logprobs are not supported"}, {}), (200, _ok_body("x"), {}))
    policy = _policy(server.url)
    assert policy.generate([Message("user", "hi")]).text == "x"
    policy.generate([Message("user", "again")])
    assert ["logprobs" in body for _, body in server.requests] == [True, False, False]


def test_openai_closed_port_fails_quickly():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again below: nothing listens there
    start = time.monotonic()
    with pytest.raises(PolicyError, match=r"failed after 3 attempt\(s\).*ConnectError"):
        _policy(f"http://127.0.0.1:{port}/v1", max_retries=2).generate([Message("user", "hi")])
    assert time.monotonic() - start < 5


def test_openai_asks_the_server_for_its_model_and_parses_tool_calls_and_token_ids(stub):
    body = {"choices": [{"message": {"content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": {"command": "ls"}}}]},
            "finish_reason": "tool_calls",
            "logprobs": {"content": [{"token": "token_id:11", "logprob": -1.0},
                                     {"token": "token_id:12", "logprob": -2.0}]},
            "token_ids": [11, 12]}], "prompt_token_ids": [1, 2, 3]}
    server = stub((200, {"data": [{"id": "served-model"}]}, {}), (200, body, {}))
    policy = get_policy("openai", base_url=server.url, api_key="k", tool_choice="auto")
    gen = policy.generate([Message("user", "hi")], tools=[BASH_TOOL])
    assert server.requests[0][0] == "/v1/models" and server.requests[1][1]["model"] == "served-model"
    assert server.requests[1][1]["tools"] == [BASH_TOOL] and server.requests[1][1]["tool_choice"] == "auto"
    assert gen.text == "" and gen.finish_reason == "stop"
    assert gen.tool_calls == ({"id": "call_1", "type": "function",
                               "function": {"name": "bash", "arguments": '{"command": "ls"}'}},)
    assert gen.token_ids == (11, 12) and gen.prompt_token_ids == (1, 2, 3) and gen.n_completion_tokens == 2


def test_openai_settings_from_the_environment(monkeypatch):
    for name in ("TERMRL_OPENAI_BASE_URL", "OPENAI_BASE_URL", "TERMRL_OPENAI_API_KEY", "OPENAI_API_KEY",
                 "TERMRL_OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(PolicyError, match="no endpoint configured"):
        get_policy("openai")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
    monkeypatch.setenv("TERMRL_OPENAI_BASE_URL", "http://127.0.0.1:2/v1/")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("TERMRL_OPENAI_MODEL", "qwen")
    config = get_policy("openai").config
    assert (config.base_url, config.api_key, config.model) == ("http://127.0.0.1:2/v1", "sk-test", "qwen")

