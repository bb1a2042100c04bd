"""A local Hugging Face transformers model (CPU, or one GPU when there is one).

Sampling and the recorded log-probs
-----------------------------------
Every sampled token's log-prob is recorded under the exact distribution it was drawn from:
``log_softmax(filter(logits / temperature))``, where ``filter`` is the optional top-k and then
top-p (nucleus) truncation (both off by default, so by default it is plain temperature
sampling and the trainer can recompute the same numbers from the logits). It is computed in
float32 inside generation, one step at a time, so no per-step score tensors are kept. With
``temperature == 0`` decoding is greedy and the log-probs are ``log_softmax(logits)``
(temperature 1). The model's own generation defaults (top-k 50, repetition penalty, ...) are
not applied: the sampling distribution is fully set by this module.

Batching
--------
Concurrent episodes call :meth:`HFPolicy.generate` from many threads. Each loaded model has
one worker thread; a request waits in its queue, and the worker takes the first waiting
request, then gathers more for up to ``batch_window_s`` (or until ``max_batch_size``), and
runs one left-padded ``model.generate`` for all requests with the same sampling settings.
Requests arriving while a batch runs are gathered into the next one. The request that opens
a batch sets its window and size (its policy's settings). Each caller gets its
own result; a row that stops early is cut at its stop token, a row with a smaller
``max_tokens`` at its own limit.

Loaded models are cached per process, keyed by (model path, device, dtype): the first policy
loads the model (about 15 s for the embedded SmolLM2 GGUF on CPU), later ones reuse it and
its worker.
"""

from __future__ import annotations

import json
import os
import queue
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from termrl.errors import PolicyError
from termrl.policies.model import ModelLocation, resolve_model
from termrl.types import Generation, Message

# Never reach a model hub: every model is a local folder or file.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import torch  # noqa: E402  (after the offline switches)
from transformers import (AutoModelForCausalLM, AutoTokenizer, GenerationConfig, LogitsProcessor,  # noqa: E402
                          LogitsProcessorList)


@dataclass
class HFConfig:
    """Settings of the ``hf`` policy."""

    model: str | None = None
    """A local HF model folder or ``.gguf`` file; None = the embedded SmolLM2-135M-Instruct."""
    device: str = "auto"
    """``auto`` (cuda when available, else cpu), ``cpu``, ``cuda`` or ``cuda:N``."""
    dtype: str = "auto"
    """``auto`` (float32 on CPU, bfloat16 on GPU), ``float32``, ``bfloat16`` or ``float16``."""
    max_batch_size: int = 8
    """Most requests run in one batched ``generate``."""
    batch_window_s: float = 0.015
    """How long the worker waits for more requests after the first one of a batch arrives."""
    max_context_tokens: int | None = None
    """Prompt + completion limit; None = the model's ``max_position_embeddings``."""
    top_k: int = 0
    """Keep only the k most likely tokens when sampling; 0 = off."""
    top_p: float = 1.0
    """Nucleus sampling mass; 1.0 = off."""
    private: bool = False
    """Load this policy its own copy of the weights instead of sharing the process-wide one (a trainer
    changes its weights in place; other policies on the same path must not see that)."""

    def __post_init__(self) -> None:
        if self.max_batch_size < 1:
            raise ValueError(f"HFConfig.max_batch_size must be at least 1, got {self.max_batch_size}")
        if self.batch_window_s < 0:
            raise ValueError(f"HFConfig.batch_window_s must be >= 0 seconds, got {self.batch_window_s}")
        if not 0.0 < self.top_p <= 1.0:
            raise ValueError(f"HFConfig.top_p must be in (0, 1], got {self.top_p}")
        if self.top_k < 0:
            raise ValueError(f"HFConfig.top_k must be >= 0 (0 = off), got {self.top_k}")


@dataclass(frozen=True)
class _SamplingKey:
    temperature: float
    top_k: int
    top_p: float


@dataclass
class _Request:
    prompt_ids: list[int]
    max_new_tokens: int
    sampling: _SamplingKey
    max_batch_size: int
    batch_window_s: float
    done: threading.Event = field(default_factory=threading.Event)
    result: Generation | None = None
    error: PolicyError | None = None


class _Recorder(LogitsProcessor):
    """Last logits processor of a batch: applies temperature/top-k/top-p itself and records,
    step by step, the log-prob of the token sampled at the previous step (so generate samples
    from exactly the distribution whose log-probs are kept, and no score history is stored)."""

    def __init__(self, sampling: _SamplingKey):
        self.sampling = sampling
        self.previous: torch.Tensor | None = None
        self.picked: list[torch.Tensor] = []

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        if self.previous is not None:
            self.picked.append(self.previous.gather(1, input_ids[:, -1:]).squeeze(1))
        scores = scores.float()
        s = self.sampling
        if s.temperature > 0:
            scores = scores / s.temperature
            if s.top_k > 0:
                kth = torch.topk(scores, min(s.top_k, scores.shape[-1]), dim=-1).values[:, -1:]
                scores = scores.masked_fill(scores < kth, float("-inf"))
            if s.top_p < 1.0:
                ordered, order = torch.sort(scores, dim=-1, descending=True)
                mass_before = torch.softmax(ordered, dim=-1).cumsum(-1) - torch.softmax(ordered, dim=-1)
                drop = mass_before >= s.top_p  # keep the smallest prefix reaching top_p (never empty)
                scores = scores.masked_fill(drop.scatter(1, order, drop), float("-inf"))
        self.previous = torch.log_softmax(scores, dim=-1)
        return scores

    def finish(self, new_tokens: torch.Tensor) -> torch.Tensor:
        """Log-probs of ``new_tokens`` (batch, steps) once generation is over."""
        if self.previous is None:
            return torch.zeros(new_tokens.shape, dtype=torch.float32)
        picked = self.picked + [self.previous.gather(1, new_tokens[:, -1:]).squeeze(1)]
        if len(picked) != new_tokens.shape[1]:
            raise PolicyError(f"hf: recorded {len(picked)} log-probs for {new_tokens.shape[1]} generated tokens "
                              "(a logits processor ran a different number of times than tokens were sampled)")
        return torch.stack(picked, dim=1)


class _Engine:
    """One loaded model, its tokenizer and the batching worker that alone calls ``generate``."""

    def __init__(self, location: ModelLocation, device: str, dtype: torch.dtype,
                 loaded: tuple[Any, Any] | None = None):
        self.location = location
        self.device = device
        self.borrowed = loaded is not None
        """The model belongs to someone else (a trainer): it is used as it is, never moved or reconfigured."""
        if loaded is not None:
            self.model, self.tokenizer = loaded
        else:
            kwargs: dict[str, Any] = {"local_files_only": True}
            if location.gguf_file:
                kwargs["gguf_file"] = location.gguf_file
            try:
                self.tokenizer = AutoTokenizer.from_pretrained(str(location.directory), **kwargs)
                model = AutoModelForCausalLM.from_pretrained(str(location.directory), dtype=dtype, **kwargs)
            except (OSError, ValueError, ImportError, KeyError, RuntimeError) as exc:
                raise PolicyError(f"hf: could not load the model at {location.path}: {exc} -- check that it is a "
                                  "complete local Hugging Face model folder or GGUF file (loading GGUF needs the "
                                  "`gguf` and `accelerate` packages)") from exc
            self.model = model.to(device).eval()
        gen = self.model.generation_config
        eos = gen.eos_token_id if gen is not None else None
        stop = set(eos if isinstance(eos, list) else [eos] if eos is not None else [])
        if self.tokenizer.eos_token_id is not None:
            stop.add(self.tokenizer.eos_token_id)
        if not stop:
            raise PolicyError(f"hf: the model at {location.path} names no end-of-sequence token, so a reply could "
                              "never stop -- use an instruction-tuned model with an eos token")
        self.stop_ids = sorted(stop)
        pad = self.tokenizer.pad_token_id
        self.pad_id = pad if pad is not None else self.stop_ids[0]
        # Replace the checkpoint's generation defaults: this module alone sets the sampling distribution.
        # (A borrowed model keeps its own; _run swaps this one in around each generate call.)
        self.generation_defaults = GenerationConfig(
            bos_token_id=getattr(gen, "bos_token_id", None), eos_token_id=self.stop_ids, pad_token_id=self.pad_id)
        if not self.borrowed:
            self.model.generation_config = self.generation_defaults
        self.context_tokens = int(getattr(self.model.config, "max_position_embeddings", 0) or 2048)
        template = self.tokenizer.chat_template or ""
        if not template:
            raise PolicyError(f"hf: the tokenizer of {location.path} has no chat template -- use an "
                              "instruction-tuned (chat) model")
        self.template_renders_tools = "tools" in template
        self.tokenizer_lock = threading.Lock()  # HF fast tokenizers are not safe to share across threads
        self.run_lock = threading.Lock()  # held while a batch runs; see HFPolicy.exclusive()
        self.batches = 0
        self.requests = 0
        self._queue: queue.Queue[_Request | None] = queue.Queue()  # None: stop
        self._worker = threading.Thread(target=self._serve, name=f"termrl-hf-{location.name}", daemon=True)
        self._worker.start()

    # --- prompts ---------------------------------------------------------------------------

    def encode(self, messages: list[Message], tools: list[dict[str, Any]] | None) -> list[int]:
        conversation = [_template_message(m, self.template_renders_tools) for m in messages]
        kwargs: dict[str, Any] = {}
        if tools:
            if self.template_renders_tools:
                kwargs["tools"] = tools
            else:
                conversation = _tools_in_system_message(conversation, tools)
        with self.tokenizer_lock:
            try:
                text = self.tokenizer.apply_chat_template(conversation, add_generation_prompt=True, tokenize=False,
                                                          **kwargs)
            except Exception as exc:  # jinja errors of arbitrary types, raised by the model's own template
                raise PolicyError(f"hf: the chat template of {self.location.name} could not render the "
                                  f"conversation ({type(exc).__name__}: {exc})") from exc
            return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def decode(self, ids: list[int]) -> str:
        with self.tokenizer_lock:
            return self.tokenizer.decode(ids, skip_special_tokens=False)

    # --- batching --------------------------------------------------------------------------

    def submit(self, request: _Request) -> Generation:
        self._queue.put(request)
        while not request.done.wait(timeout=1.0):
            if not self._worker.is_alive():
                raise PolicyError("hf: the generation worker thread has died; restart the process")
        if request.error is not None:
            raise request.error
        assert request.result is not None
        return request.result

    def close(self) -> None:
        """Stop the worker once the requests already queued are served."""
        self._queue.put(None)

    def _serve(self) -> None:
        closing = False
        while not closing:
            first = self._queue.get()  # the request that opens a batch sets its window and size
            if first is None:
                return
            batch = [first]
            deadline = time.monotonic() + first.batch_window_s
            while len(batch) < first.max_batch_size:
                try:
                    request = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if request is None:
                    closing = True
                    break
                batch.append(request)
            groups: dict[_SamplingKey, list[_Request]] = {}
            for request in batch:
                groups.setdefault(request.sampling, []).append(request)
            for sampling, group in groups.items():
                try:
                    with self.run_lock:
                        results = self._run(sampling, group)
                    for request, result in zip(group, results, strict=True):
                        request.result = result
                except Exception as exc:  # report any generate failure to every waiting caller, keep serving
                    error = exc if isinstance(exc, PolicyError) else PolicyError(
                        f"hf: generate failed on {self.location.name} ({type(exc).__name__}: {exc})")
                    for request in group:
                        request.error = error
                finally:
                    for request in group:
                        request.done.set()

    def _run(self, sampling: _SamplingKey, group: list[_Request]) -> list[Generation]:
        width = max(len(r.prompt_ids) for r in group)
        input_ids = torch.full((len(group), width), self.pad_id, dtype=torch.long)
        attention = torch.zeros((len(group), width), dtype=torch.long)
        for row, request in enumerate(group):  # left padding: every prompt ends at the same column
            n = len(request.prompt_ids)
            input_ids[row, width - n:] = torch.tensor(request.prompt_ids, dtype=torch.long)
            attention[row, width - n:] = 1
        recorder = _Recorder(sampling)
        options: dict[str, Any] = {"do_sample": sampling.temperature > 0,
                                   "max_new_tokens": max(r.max_new_tokens for r in group),
                                   "eos_token_id": self.stop_ids, "pad_token_id": self.pad_id}
        if sampling.temperature > 0:  # _Recorder applies temperature/top-k/top-p; switch generate's own off
            options.update(temperature=1.0, top_k=0, top_p=1.0)
        # generate fills unset options from the model's generation_config (a PEFT wrapper's base model's)
        target = self.model.get_base_model() if hasattr(self.model, "get_base_model") else self.model
        own_defaults = target.generation_config
        target.generation_config = self.generation_defaults
        try:
            with torch.inference_mode():
                out = self.model.generate(input_ids=input_ids.to(self.device),
                                          attention_mask=attention.to(self.device),
                                          generation_config=GenerationConfig(**options),
                                          logits_processor=LogitsProcessorList([recorder]))
        finally:
            target.generation_config = own_defaults
        self.batches += 1
        self.requests += len(group)
        new_tokens = out[:, width:]
        logprobs = recorder.finish(new_tokens).cpu()
        new_tokens = new_tokens.cpu()
        stop = set(self.stop_ids)
        results = []
        for row, request in enumerate(group):
            ids = new_tokens[row, :request.max_new_tokens].tolist()
            finish = "length"
            for i, token in enumerate(ids):
                if token in stop:
                    ids, finish = ids[:i + 1], "stop"
                    break
            text_ids = ids[:-1] if finish == "stop" else ids
            results.append(Generation(
                text=self.decode(text_ids), token_ids=tuple(ids),
                logprobs=tuple(float(x) for x in logprobs[row, :len(ids)]),
                prompt_token_ids=tuple(request.prompt_ids), finish_reason=finish,
                n_prompt_tokens=len(request.prompt_ids), n_completion_tokens=len(ids)))
        return results


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


_ENGINES: dict[tuple[str, str, str], _Engine] = {}
_ENGINES_LOCK = threading.Lock()


def _pick_device(device: str) -> str:
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise PolicyError(f"hf: device {device!r} asked for, but torch sees no CUDA GPU -- use device 'cpu' or 'auto'")
    return device


def _pick_dtype(dtype: str, device: str) -> torch.dtype:
    if dtype == "auto":
        if device.startswith("cuda"):
            return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        return torch.float32
    choices = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
    if dtype not in choices:
        raise PolicyError(f"hf: unknown dtype {dtype!r} -- use one of auto, {', '.join(choices)}")
    return choices[dtype]


def load_engine(config: HFConfig) -> _Engine:
    """The process-wide loaded model for ``config`` (loaded on first use)."""
    location = resolve_model(config.model)
    device = _pick_device(config.device)
    dtype = _pick_dtype(config.dtype, device)
    if config.private:
        return _Engine(location, device, dtype)
    key = (str(location.path), device, str(dtype))
    with _ENGINES_LOCK:
        engine = _ENGINES.get(key)
        if engine is None:
            engine = _ENGINES[key] = _Engine(location, device, dtype)
    return engine


class HFPolicy:
    """Generates with a local transformers model; batches concurrent callers (see module doc)."""

    name = "hf"

    def __init__(self, config: HFConfig | None = None, **overrides: Any):
        self.config = config if config is not None else HFConfig(**overrides)
        if config is not None and overrides:
            raise TypeError("give HFPolicy either an HFConfig or keyword settings, not both")
        self._engine = load_engine(self.config)
        self.context_tokens = self.config.max_context_tokens or self._engine.context_tokens

    @classmethod
    def from_model(cls, model: Any, tokenizer: Any, *, name: str = "trainer-model", **settings: Any) -> HFPolicy:
        """A policy that samples from a model someone else owns and trains (e.g. a TRL trainer's live model).

        The model is used where it is (its device and dtype), never moved, put in eval mode or given
        new generation defaults; the caller puts it in eval mode (and gathers sharded weights) around
        the episodes. ``settings`` are :class:`HFConfig` fields (``max_batch_size``, ``top_k`` ...).
        :meth:`close` stops the policy's generation worker; the model stays the owner's.
        """
        from pathlib import Path

        policy = cls.__new__(cls)
        policy.config = HFConfig(private=True, **settings)
        device = str(next(model.parameters()).device)
        policy._engine = _Engine(ModelLocation(Path(name)), device, next(model.parameters()).dtype,
                                 loaded=(model, tokenizer))
        policy.context_tokens = policy.config.max_context_tokens or policy._engine.context_tokens
        return policy

    @property
    def model(self) -> Any:
        """The loaded ``transformers`` model (shared by every policy on the same weights, unless private)."""
        return self._engine.model

    def close(self) -> None:
        """Stop a private model's worker thread (a shared model serves the whole process: left running)."""
        if self.config.private:
            self._engine.close()

    @property
    def tokenizer(self) -> Any:
        return self._engine.tokenizer

    @property
    def model_name(self) -> str:
        return self._engine.location.name

    def stats(self) -> dict[str, int]:
        """``batches`` (model.generate calls) and ``requests`` served so far by this loaded model."""
        return {"batches": self._engine.batches, "requests": self._engine.requests}

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold off generation (e.g. while a trainer updates the weights in place)."""
        with self._engine.run_lock:
            yield

    def prompt_token_ids(self, messages: list[Message], tools: list[dict[str, Any]] | None = None) -> list[int]:
        """The token ids :meth:`generate` would feed the model (chat template + generation prompt)."""
        return self._engine.encode(messages, tools)

    def generate(self, messages: list[Message], *, tools: list[dict[str, Any]] | None = None,
                 max_tokens: int = 512, temperature: float = 0.7) -> Generation:
        """Sample one reply (see the module doc for batching and the log-probs).

        Raises:
            PolicyError: the prompt does not fit the context, the template failed, or generation failed.
        """
        if max_tokens < 1:
            raise PolicyError(f"hf: max_tokens must be at least 1, got {max_tokens}")
        if temperature < 0:
            raise PolicyError(f"hf: temperature must be >= 0 (0 = greedy), got {temperature}")
        prompt = self._engine.encode(messages, tools)
        room = self.context_tokens - len(prompt)
        if room < 1:
            raise PolicyError(f"hf: the prompt is {len(prompt)} tokens but {self.model_name}'s context holds "
                              f"{self.context_tokens} (max_context_tokens) -- shorten the conversation (fewer "
                              "turns, smaller observations) or use a model with a longer context")
        sampling = _SamplingKey(float(temperature), self.config.top_k if temperature > 0 else 0,
                                self.config.top_p if temperature > 0 else 1.0)
        return self._engine.submit(_Request(prompt, min(max_tokens, room), sampling, self.config.max_batch_size,
                                            self.config.batch_window_s))
