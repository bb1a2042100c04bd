"""One loaded model and the worker thread that batches every caller's ``generate``.

Concurrent episodes call :meth:`HFPolicy.generate <termrl.policies.hf.HFPolicy.generate>` from many
threads. Each loaded model has one worker thread; a request waits in its queue, and the worker takes
the first waiting request, then gathers more for up to ``batch_window_s`` (or until
``max_batch_size``), and runs one left-padded ``model.generate`` for all requests with the same
sampling settings (:class:`~termrl.policies.sampling.SamplingKey`). Requests arriving while a batch
runs are gathered into the next one. The request that opens a batch sets its window and size (its
policy's settings). Each caller gets its own result; a row that stops early is cut at its stop
token, a row with a smaller ``max_tokens`` at its own limit, and a row whose request has a ``stop_at``
pattern (a complete action) at the token that completed the first match: :class:`ActionEnd` tells
``generate`` that row is done, and the batch ends when every row is.
"""

from __future__ import annotations

import queue
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import termrl.policies.offline  # noqa: F401  (before transformers)
from termrl.errors import PolicyError
from termrl.policies import chat
from termrl.policies.model import ModelLocation
from termrl.policies.sampling import LogprobRecorder, SamplingKey
from termrl.types import Generation, Message

import torch  # noqa: E402
from transformers import (  # noqa: E402
    AutoModelForCausalLM,
    AutoTokenizer,
    GenerationConfig,
    LogitsProcessorList,
    StoppingCriteria,
    StoppingCriteriaList,
)


@dataclass
class Request:
    """One caller's prompt, waiting in the worker's queue until ``done`` is set."""

    prompt_ids: list[int]
    max_new_tokens: int
    sampling: SamplingKey
    max_batch_size: int
    batch_window_s: float
    done: threading.Event = field(default_factory=threading.Event)
    stop_at: re.Pattern[str] | None = None
    """The reply ends once its text matches (see :class:`ActionEnd`)."""
    result: Generation | None = None
    error: PolicyError | None = None


class ActionEnd(StoppingCriteria):
    """Marks a row done once its new text matches its request's ``stop_at``; remembers how many new
    tokens it had then (``ends[row]``), so the reply is cut right there."""

    def __init__(self, patterns: list[re.Pattern[str] | None], width: int, decode: Any):
        self.patterns = patterns
        self.width = width
        self.decode = decode
        self.ends: list[int | None] = [None] * len(patterns)

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor, **kwargs: Any) -> torch.BoolTensor:
        new = input_ids[:, self.width:]
        for row, pattern in enumerate(self.patterns):
            if pattern is not None and self.ends[row] is None and pattern.search(self.decode(new[row].tolist())):
                self.ends[row] = new.shape[1]
        return torch.tensor([end is not None for end in self.ends], dtype=torch.bool, device=input_ids.device)


class Engine:
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
        # Replace the checkpoint's generation defaults: termrl alone sets the sampling distribution.
        # (A borrowed model keeps its own; _run swaps this one in around each generate call.)
        self.generation_defaults = GenerationConfig(
            bos_token_id=getattr(gen, "bos_token_id", None), eos_token_id=self.stop_ids, pad_token_id=self.pad_id)
        if not self.borrowed:
            self.model.generation_config = self.generation_defaults
        self.context_tokens = int(getattr(self.model.config, "max_position_embeddings", 0) or 2048)
        self.template_renders_tools = chat.renders_tools(self.tokenizer, str(location.path))
        self.tokenizer_lock = threading.Lock()  # HF fast tokenizers are not safe to share across threads
        self.run_lock = threading.Lock()  # held while a batch runs; see HFPolicy.exclusive()
        self.batches = 0
        self.requests = 0
        self._queue: queue.Queue[Request | None] = queue.Queue()  # None: stop
        self._worker = threading.Thread(target=self._serve, name=f"termrl-hf-{location.name}", daemon=True)
        self._worker.start()

    # --- prompts ---------------------------------------------------------------------------

    def encode(self, messages: list[Message], tools: list[dict[str, Any]] | None) -> list[int]:
        """The prompt's token ids: the chat template applied (:mod:`termrl.policies.chat`), then tokenised."""
        conversation, template_kwargs = chat.conversation(messages, tools, self.template_renders_tools)
        with self.tokenizer_lock:
            text = chat.render(self.tokenizer, conversation, template_kwargs, self.location.name)
            return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def decode(self, ids: list[int]) -> str:
        with self.tokenizer_lock:
            return self.tokenizer.decode(ids, skip_special_tokens=False)

    # --- batching --------------------------------------------------------------------------

    def submit(self, request: Request) -> Generation:
        """Queue ``request`` and wait for its result.

        Raises:
            PolicyError: generation failed, or the worker thread died.
        """
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
            groups: dict[SamplingKey, list[Request]] = {}
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

    def _run(self, sampling: SamplingKey, group: list[Request]) -> list[Generation]:
        width = max(len(r.prompt_ids) for r in group)
        input_ids = torch.full((len(group), width), self.pad_id, dtype=torch.long)
        attention = torch.zeros((len(group), width), dtype=torch.long)
        for row, request in enumerate(group):  # left padding: every prompt ends at the same column
            n = len(request.prompt_ids)
            input_ids[row, width - n:] = torch.tensor(request.prompt_ids, dtype=torch.long)
            attention[row, width - n:] = 1
        recorder = LogprobRecorder(sampling)
        action_end = ActionEnd([r.stop_at for r in group], width, self.decode)
        stopping = StoppingCriteriaList([action_end] if any(r.stop_at for r in group) else [])
        options: dict[str, Any] = {**sampling.generate_options(),
                                   "max_new_tokens": max(r.max_new_tokens for r in group),
                                   "eos_token_id": self.stop_ids, "pad_token_id": self.pad_id}
        # generate fills unset options from the model's generation_config (a PEFT wrapper's base model's)
        target = self.model.get_base_model() if hasattr(self.model, "get_base_model") else self.model
        own_defaults = target.generation_config
        target.generation_config = self.generation_defaults
        try:
            with torch.inference_mode():
                out = self.model.generate(input_ids=input_ids.to(self.device),
                                          attention_mask=attention.to(self.device),
                                          generation_config=GenerationConfig(**options),
                                          logits_processor=LogitsProcessorList([recorder]),
                                          stopping_criteria=stopping)
        finally:
            target.generation_config = own_defaults
        self.batches += 1
        self.requests += len(group)
        new_tokens = out[:, width:]
        logprobs = recorder.finish(new_tokens).cpu()
        new_tokens = new_tokens.cpu()
        return [self._result(request, new_tokens[row], logprobs[row], action_end.ends[row])
                for row, request in enumerate(group)]

    def _result(self, request: Request, new_tokens: torch.Tensor, logprobs: torch.Tensor,
                action_end: int | None = None) -> Generation:
        """One row of a batch as its caller's reply: cut at its own ``max_new_tokens``, its first stop
        token, or where its text first matched its ``stop_at`` (``action_end`` new tokens)."""
        ids = new_tokens[:request.max_new_tokens].tolist()
        finish = "length"
        if action_end is not None and action_end <= len(ids):
            ids, finish = ids[:action_end], "stop"  # the action is complete; after it the row holds padding
        text_ids = ids
        for i, token in enumerate(ids):
            if token in self.stop_ids:
                ids, finish = ids[:i + 1], "stop"
                text_ids = ids[:-1]
                break
        return Generation(
            text=self.decode(text_ids), token_ids=tuple(ids),
            logprobs=tuple(float(x) for x in logprobs[:len(ids)]),
            prompt_token_ids=tuple(request.prompt_ids), finish_reason=finish,
            n_prompt_tokens=len(request.prompt_ids), n_completion_tokens=len(ids))
