"""A local Hugging Face transformers model (CPU, or one GPU when there is one).

:class:`HFPolicy` is the ``hf`` backend of the :class:`~termrl.policies.base.Policy` contract. Its
parts, one module each:

- :mod:`termrl.policies.sampling`: the sampling distribution (temperature, top-k, top-p) and the
  log-prob recorded for every sampled token;
- :mod:`termrl.policies.batching`: the loaded model and the worker thread that batches concurrent
  callers into one ``generate``;
- :mod:`termrl.policies.chat`: messages and tools through the model's chat template.

Loaded models are cached per process, keyed by (model path, device, dtype): the first policy
loads the model (about 15 s for the embedded SmolLM2 GGUF on CPU), later ones reuse it and
its worker.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import torch

from termrl.errors import PolicyError
from termrl.policies.batching import Engine, Request
from termrl.policies.model import ModelLocation, resolve_model
from termrl.policies.sampling import SamplingKey
from termrl.types import Generation, Message


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


_ENGINES: dict[tuple[str, str, str], Engine] = {}
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


def load_engine(config: HFConfig) -> Engine:
    """The process-wide loaded model for ``config`` (loaded on first use)."""
    location = resolve_model(config.model)
    device = _pick_device(config.device)
    dtype = _pick_dtype(config.dtype, device)
    if config.private:
        return Engine(location, device, dtype)
    key = (str(location.path), device, str(dtype))
    with _ENGINES_LOCK:
        engine = _ENGINES.get(key)
        if engine is None:
            engine = _ENGINES[key] = Engine(location, device, dtype)
    return engine


class HFPolicy:
    """Generates with a local transformers model; batches concurrent callers (:mod:`termrl.policies.batching`)."""

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
        policy._engine = Engine(ModelLocation(Path(name)), device, next(model.parameters()).dtype,
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
                 max_tokens: int = 512, temperature: float = 0.7,
                 stop_at: re.Pattern[str] | None = None) -> Generation:
        """Sample one reply (batching: :mod:`termrl.policies.batching`; log-probs: :mod:`termrl.policies.sampling`).

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
        sampling = SamplingKey.of(temperature, self.config.top_k, self.config.top_p)
        return self._engine.submit(Request(prompt, min(max_tokens, room), sampling, self.config.max_batch_size,
                                           self.config.batch_window_s, stop_at=stop_at))
