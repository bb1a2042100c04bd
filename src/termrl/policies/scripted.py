"""A deterministic fake model for unit tests of the agent loop (no model, no network)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from typing import Any

from termrl.errors import PolicyError
from termrl.types import Generation, Message

Reply = str | Generation
ReplyFunction = Callable[[list[Message]], Reply]


class ScriptedPolicy:
    """Replays fixed replies in order, or asks a function for each one.

    ``replies`` is either a list whose items are plain text or whole :class:`Generation`
    records (to inject ``tool_calls``, ``finish_reason`` or token ids), or a function
    ``f(messages) -> str | Generation`` called once per turn. ``max_tokens`` and
    ``temperature`` are ignored, and a plain-text reply carries no token ids or counts
    (inject a Generation to test token limits); the ``tools`` and messages of every call are kept in
    :attr:`calls` so a test can check what the agent sent.

    Thread-safe: concurrent callers each take the next reply, in call order.
    """

    name = "scripted"

    def __init__(self, replies: Sequence[Reply] | ReplyFunction):
        if callable(replies):
            self._function: ReplyFunction | None = replies
            self._replies: list[Reply] = []
        else:
            self._function = None
            self._replies = list(replies)
            for i, reply in enumerate(self._replies):
                if not isinstance(reply, (str, Generation)):
                    raise TypeError(f"ScriptedPolicy reply {i} is a {type(reply).__name__}: "
                                    "give str or Generation items, or one function")
        self._next = 0
        self._lock = threading.Lock()
        self.calls: list[tuple[list[Message], list[dict[str, Any]] | None]] = []
        """Every ``(messages, tools)`` this policy was called with, in order."""

    @property
    def remaining(self) -> int:
        """How many scripted replies are left (0 for a function-driven policy)."""
        return len(self._replies) - self._next

    def generate(self, messages: list[Message], *, tools: list[dict[str, Any]] | None = None,
                 max_tokens: int = 512, temperature: float = 0.7,
                 stop_at: re.Pattern[str] | None = None) -> Generation:
        """Return the next scripted reply.

        Raises:
            PolicyError: the script has no reply left, or the reply function failed or
                returned something other than str or Generation.
        """
        with self._lock:
            self.calls.append((list(messages), tools))
            if self._function is None:
                if self._next >= len(self._replies):
                    raise PolicyError(f"scripted policy ran out of replies: all {len(self._replies)} were used and "
                                      f"call {len(self.calls)} asked for one more -- add replies to the script or "
                                      "lower the agent's turn limit")
                reply = self._replies[self._next]
                self._next += 1
        if self._function is not None:
            try:
                reply = self._function(list(messages))
            except PolicyError:
                raise
            except Exception as exc:  # the function is user test code: report it at the policy boundary
                raise PolicyError(f"scripted policy's reply function raised {type(exc).__name__}: {exc}") from exc
            if not isinstance(reply, (str, Generation)):
                raise PolicyError(f"scripted policy's reply function returned {type(reply).__name__}; "
                                  "return str or Generation")
        if isinstance(reply, Generation):
            return reply
        return Generation(text=reply)
