"""Model backends behind the :class:`Policy` contract, found by short name.

``hf`` (local transformers model, batched), ``openai`` (any OpenAI-compatible server),
``scripted`` (fixed replies, for tests), or ``"package.module:Class"`` for a plugin. The
``hf`` backend imports torch, so it is loaded only when asked for.
"""

from __future__ import annotations

from typing import Any

from termrl.errors import PolicyError
from termrl.plugins import load_plugin
from termrl.policies.base import Policy
from termrl.policies.scripted import ScriptedPolicy

POLICIES: dict[str, str] = {
    "hf": "termrl.policies.hf:HFPolicy",
    "openai": "termrl.policies.openai:OpenAIPolicy",
    "scripted": "termrl.policies.scripted:ScriptedPolicy",
}
"""Short name -> ``module:Class`` of each built-in backend."""


def get_policy(name: str, **config: Any) -> Policy:
    """Build the policy called ``name`` with keyword settings ``config``.

    ``name`` is a key of :data:`POLICIES` or a dotted ``module:Class`` path; the class is
    called with ``**config`` (``ScriptedPolicy`` takes ``replies=...``).

    Raises:
        PolicyError: unknown name, a plugin path that does not import, or bad settings.
    """
    target = POLICIES.get(name, name)
    if ":" not in target:
        raise PolicyError(f"unknown policy {name!r}: use one of {', '.join(POLICIES)} or a plugin path "
                          "'package.module:ClassName'")
    try:
        cls = load_plugin(target)
    except ValueError as exc:
        hint = (" -- install the model dependencies (torch==2.13.0, transformers, gguf, accelerate) with "
                "scripts/setup.sh") if name == "hf" and isinstance(exc.__cause__, ImportError) else ""
        raise PolicyError(f"policy {name!r}: {exc}{hint}") from exc
    try:
        policy = cls(**config)
    except (TypeError, ValueError) as exc:
        raise PolicyError(f"policy {name!r}: bad settings {sorted(config)} ({exc})") from exc
    if not callable(getattr(policy, "generate", None)):
        raise PolicyError(f"policy {name!r}: {target} has no generate() method, so it is not a Policy")
    return policy


__all__ = ["POLICIES", "Policy", "ScriptedPolicy", "get_policy"]
