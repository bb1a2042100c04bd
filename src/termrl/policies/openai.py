"""Any OpenAI-compatible chat-completions endpoint: vLLM, SGLang, llama.cpp's server, hosted APIs.

Settings come from arguments, else from the environment:

* ``base_url``: ``TERMRL_OPENAI_BASE_URL``, else ``OPENAI_BASE_URL``; it includes the API
  prefix, as in the OpenAI SDK (``http://127.0.0.1:8000/v1``); requests go to
  ``{base_url}/chat/completions``. With neither set but an OpenAI key present, OpenAI's API.
* ``api_key``: ``TERMRL_OPENAI_API_KEY``, else ``OPENAI_API_KEY``; may be empty (local servers).
* ``model``: ``TERMRL_OPENAI_MODEL``; else the first model the server lists at ``/models``.

Failures: connection errors, timeouts, 429 and 5xx answers are retried with exponential
backoff (honouring ``Retry-After``), at most ``max_retries`` times and within
``max_retry_time_s``; then, or at once for any other 4xx, :class:`PolicyError` names the URL,
the status and the server's message.

Log-probs and token ids (best effort, as the server reports them): the request asks for
``logprobs: true`` (with ``top_logprobs: 0``); ``Generation.logprobs`` holds each completion
token's ``logprob`` from ``choices[0].logprobs.content``. Which distribution that is depends
on the server: llama-cpp-python and vLLM (by default) report the raw model distribution
(temperature 1), not the one sampled from. Token ids are filled when the server gives them:
per-token ``id`` / ``token_id`` fields (llama.cpp's C++ server), ``token_id:N`` tokens (vLLM's
``return_tokens_as_token_ids``), or ``choices[0].token_ids`` and ``prompt_token_ids`` (vLLM's
``return_token_ids``; ask for these through ``extra_body``). llama-cpp-python's server gives
log-probs but no ids. A server that rejects ``logprobs`` is asked again without them, once.
"""

from __future__ import annotations

import json
import os
import random
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from termrl.errors import PolicyError
from termrl.rollout.shutdown import STOP
from termrl.types import Generation, Message

RETRY_STATUSES = frozenset({408, 429}) | frozenset(range(500, 600))
"""Answers worth retrying: request timeout, rate limit, server errors."""


def _env(*names: str) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value is not None:
            return value
    return None


@dataclass
class OpenAIConfig:
    """Settings of the ``openai`` policy (unset ones are read from the environment)."""

    base_url: str | None = None
    """Endpoint root including the API prefix, e.g. ``http://127.0.0.1:8000/v1``."""
    api_key: str | None = None
    """Bearer token; empty for local servers that need none."""
    model: str | None = None
    """Model name sent to the server; None = the first one it lists."""
    timeout_s: float = 600.0
    """Longest wait for one response (a long completion on a slow server takes minutes)."""
    connect_timeout_s: float = 10.0
    max_retries: int = 5
    """Retries after the first attempt on connection errors, timeouts, 429 and 5xx."""
    backoff_s: float = 1.0
    """First retry delay; doubled each retry (with jitter), capped by ``max_backoff_s``."""
    max_backoff_s: float = 30.0
    max_retry_time_s: float = 300.0
    """Give up retrying once this much time has passed since the first attempt."""
    logprobs: bool = True
    """Ask for per-token log-probs."""
    tool_choice: str | dict[str, Any] | None = None
    """Sent with ``tools`` when set (``auto``, ``required``, or a named function)."""
    extra_body: dict[str, Any] = field(default_factory=dict)
    """Merged into every request body (server-specific options such as ``top_p`` or vLLM's ``return_token_ids``)."""
    headers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.base_url is None:
            self.base_url = _env("TERMRL_OPENAI_BASE_URL", "OPENAI_BASE_URL")
        if self.api_key is None:
            self.api_key = _env("TERMRL_OPENAI_API_KEY", "OPENAI_API_KEY") or ""
        if self.model is None:
            self.model = _env("TERMRL_OPENAI_MODEL")
        if not self.base_url:
            if not self.api_key:
                raise PolicyError("openai: no endpoint configured -- set base_url (or TERMRL_OPENAI_BASE_URL), e.g. "
                                  "http://127.0.0.1:8000/v1 for a local vLLM/SGLang/llama.cpp server")
            self.base_url = "https://api.openai.com/v1"
        self.base_url = self.base_url.rstrip("/")
        if not self.base_url.startswith(("http://", "https://")):
            raise PolicyError(f"openai: base_url {self.base_url!r} must start with http:// or https://")
        if self.max_retries < 0 or self.backoff_s < 0 or self.max_retry_time_s < 0:
            raise ValueError("OpenAIConfig: max_retries, backoff_s and max_retry_time_s must be >= 0")


class OpenAIPolicy:
    """Generates through an OpenAI-compatible ``/chat/completions`` endpoint. Thread-safe."""

    name = "openai"

    def __init__(self, config: OpenAIConfig | None = None, **overrides: Any):
        if config is not None and overrides:
            raise TypeError("give OpenAIPolicy either an OpenAIConfig or keyword settings, not both")
        self.config = config if config is not None else OpenAIConfig(**overrides)
        headers = {"Content-Type": "application/json", **self.config.headers}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        self._client = httpx.Client(headers=headers, timeout=httpx.Timeout(
            self.config.timeout_s, connect=self.config.connect_timeout_s))
        self._lock = threading.Lock()
        self._model: str | None = self.config.model
        self._send_logprobs = self.config.logprobs

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> OpenAIPolicy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def model(self) -> str:
        """The served model's name (asked from the server's ``/models`` when not configured).

        Raises:
            PolicyError: the server could not be reached or lists no model.
        """
        with self._lock:
            if self._model is None:
                listing = self._request("GET", "/models")
                names = [m.get("id") for m in listing.get("data", []) if isinstance(m, dict) and m.get("id")]
                if not names:
                    raise PolicyError(f"openai: {self.config.base_url}/models lists no model -- set model "
                                      "(or TERMRL_OPENAI_MODEL) to the served model's name")
                self._model = names[0]
            return self._model

    def generate(self, messages: list[Message], *, tools: list[dict[str, Any]] | None = None,
                 max_tokens: int = 512, temperature: float = 0.7,
                 stop_at: re.Pattern[str] | None = None) -> Generation:
        """One chat completion (see the module doc for retries, log-probs and token ids).

        Raises:
            PolicyError: a non-retryable answer (4xx other than 429), retries used up, or a
                malformed response.
        """
        body: dict[str, Any] = {"model": self.model, "messages": [m.to_openai() for m in messages],
                                "max_tokens": max_tokens, "temperature": temperature}
        if tools:
            body["tools"] = tools
            if self.config.tool_choice is not None:
                body["tool_choice"] = self.config.tool_choice
        body.update(self.config.extra_body)
        if self._send_logprobs:
            try:
                return _parse_completion(self._request("POST", "/chat/completions",
                                                       {**body, "logprobs": True, "top_logprobs": 0}))
            except _Rejected as exc:
                if "logprob" not in exc.detail.lower():
                    raise
                self._send_logprobs = False  # this server or model has none; stop asking
        return _parse_completion(self._request("POST", "/chat/completions", body))

    def _request(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        url = f"{self.config.base_url}{path}"
        cfg = self.config
        start = time.monotonic()
        attempt = 0
        while True:
            retry_after: float | None = None
            hint = "the server kept failing or rate-limiting; see its log, or raise max_retries / max_retry_time_s"
            try:
                response = self._client.request(method, url, json=body)
            except httpx.TransportError as exc:  # refused, reset, DNS, timeouts: transient
                problem = f"{type(exc).__name__}: {exc}"
                hint = "check that the server is running and reachable (base_url / TERMRL_OPENAI_BASE_URL)"
            else:
                if response.status_code < 400:
                    try:
                        data = response.json()
                    except ValueError as exc:
                        raise PolicyError(f"openai: {method} {url} answered {response.status_code} with a body that "
                                          f"is not JSON: {response.text[:500]!r}") from exc
                    if not isinstance(data, dict):
                        raise PolicyError(f"openai: {method} {url} answered with JSON that is not an object: "
                                          f"{response.text[:500]!r}")
                    return data
                detail = response.text[:2000]
                problem = f"HTTP {response.status_code}: {detail}"
                if response.status_code not in RETRY_STATUSES:
                    raise _Rejected(f"openai: {method} {url} was rejected with HTTP {response.status_code} "
                                    f"{response.reason_phrase}: {detail} -- check the model name, the request "
                                    "settings and the API key", detail)
                retry_after = _retry_after(response)
            elapsed = time.monotonic() - start
            delay = min(cfg.max_backoff_s, cfg.backoff_s * 2 ** attempt) * (0.5 + random.random() / 2)
            if retry_after is not None:
                delay = min(max(delay, retry_after), cfg.max_backoff_s)
            if attempt >= cfg.max_retries or elapsed + delay > cfg.max_retry_time_s:
                raise PolicyError(f"openai: {method} {url} failed after {attempt + 1} attempt(s) in {elapsed:.1f} s; "
                                  f"last error: {problem} -- {hint}")
            if STOP.wait(delay):  # a stopping run does not sit out the backoff
                raise PolicyError(f"openai: {method} {url}: stopped while retrying ({problem})")
            attempt += 1


class _Rejected(PolicyError):
    """A non-retryable 4xx answer; ``detail`` is the server's body."""

    def __init__(self, message: str, detail: str):
        super().__init__(message)
        self.detail = detail


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None  # an HTTP date: fall back to our own backoff


def _parse_completion(data: dict[str, Any]) -> Generation:
    try:
        choice = data["choices"][0]
        message = choice["message"]
    except (KeyError, IndexError, TypeError) as exc:
        raise PolicyError(f"openai: the response has no choices[0].message: {str(data)[:500]}") from exc
    tool_calls = tuple(_tool_call(c) for c in message.get("tool_calls") or ())
    logprobs, token_ids = _token_logprobs(choice.get("logprobs"))
    if isinstance(choice.get("token_ids"), list):
        token_ids = tuple(int(t) for t in choice["token_ids"])
    if token_ids and logprobs and len(token_ids) != len(logprobs):
        token_ids = ()  # ids that do not line up with the log-probs are no use to a trainer
    prompt_ids = data.get("prompt_token_ids") or choice.get("prompt_token_ids") or ()
    usage = data.get("usage") or {}
    return Generation(
        text=message.get("content") or "",
        token_ids=token_ids,
        logprobs=logprobs,
        prompt_token_ids=tuple(int(t) for t in prompt_ids),
        finish_reason="length" if choice.get("finish_reason") == "length" else "stop",
        n_prompt_tokens=int(usage.get("prompt_tokens") or len(prompt_ids)),
        n_completion_tokens=int(usage.get("completion_tokens") or len(token_ids) or len(logprobs)),
        tool_calls=tool_calls,
    )


def _tool_call(call: dict[str, Any]) -> dict[str, Any]:
    fn = call.get("function") or {}
    args = fn.get("arguments")
    if not isinstance(args, str):  # some servers send a mapping; OpenAI's shape is a JSON string
        args = json.dumps(args if args is not None else {})
    return {"id": call.get("id") or "", "type": "function",
            "function": {"name": fn.get("name") or "", "arguments": args}}


def _token_logprobs(logprobs: Any) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """``(logprobs, token_ids)`` from a chat ``logprobs`` object; ids only when every token has one."""
    content = logprobs.get("content") if isinstance(logprobs, dict) else None
    if not isinstance(content, list):
        return (), ()
    values: list[float] = []
    ids: list[int] = []
    for item in content:
        if not isinstance(item, dict) or item.get("logprob") is None:
            return (), ()
        values.append(float(item["logprob"]))
        token_id = item.get("id", item.get("token_id"))
        token = item.get("token")
        if token_id is None and isinstance(token, str) and token.startswith("token_id:"):
            token_id = token[len("token_id:"):]
        if token_id is not None:
            ids.append(int(token_id))
    return tuple(values), tuple(ids) if len(ids) == len(values) else ()
