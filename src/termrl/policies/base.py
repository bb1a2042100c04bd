"""The Policy contract: messages in, one generation out."""

from __future__ import annotations

from typing import Any, Protocol

from termrl.types import Generation, Message


class Policy(Protocol):
    name: str
    """Short backend name recorded on episodes: hf | openai | scripted."""

    def generate(self, messages: list[Message], *, tools: list[dict[str, Any]] | None = None,
                 max_tokens: int = 512, temperature: float = 0.7) -> Generation:
        """Generate one assistant reply.

        ``tools`` (JSON-schema function specs, OpenAI shape) is given for the native tool-call
        action format; a backend renders them through the model's chat template (hf) or passes
        them to the server (openai). Thread-safe: concurrent episodes call it at once, and the
        hf backend batches their requests.

        Raises:
            PolicyError: the backend failed (after its retries); recorded on the episode.
        """
        ...
