"""The Policy contract: messages in, one generation out."""

from __future__ import annotations

import re
from typing import Any, Protocol

from termrl.types import Generation, Message


class Policy(Protocol):
    name: str
    """Short backend name recorded on episodes: hf | openai | scripted."""

    def generate(self, messages: list[Message], *, tools: list[dict[str, Any]] | None = None,
                 max_tokens: int = 512, temperature: float = 0.7,
                 stop_at: re.Pattern[str] | None = None) -> Generation:
        """Generate one assistant reply.

        ``tools`` (JSON-schema function specs, OpenAI shape) is given for the native tool-call
        action format; a backend renders them through the model's chat template (hf) or passes
        them to the server (openai). ``stop_at`` matches a complete action in the reply text (the
        action format's :attr:`~termrl.agent.formats.ActionFormat.action_end`): a backend that can
        stops generating once the reply holds a match, so no tokens are sampled (or trained on)
        after the action; the hf backend does, openai and scripted ignore it. Thread-safe:
        concurrent episodes call it at once, and the hf backend batches their requests.

        Raises:
            PolicyError: the backend failed (after its retries); recorded on the episode.
        """
        ...
