"""The judge registry: judges score HOW an agent worked, from its trajectory (the tests score WHAT it achieved).

Both judges rate the four criteria of the contract (``termrl.rewards.base``: :class:`Judge`,
``CRITERIA``, after Terminal-Bench-RL's judge); the value is their weighted mean, in [0, 1].

* :class:`RubricJudge` (the default) computes them from trajectory facts: offline,
  deterministic, free. Its formulas are in its docstring.
* :class:`LLMJudge` asks a model (any :class:`~termrl.policies.base.Policy`) with the rubric
  in ``prompts/llm_judge.md`` and parses per-criterion scores from its JSON reply.

``get_judge("rubric" | "llm" | "none" | "package.module:Class")`` builds one by name.
"""

from __future__ import annotations

from termrl.plugins import load_plugin
from termrl.policies.base import Policy
from termrl.rewards.base import CRITERIA, CriterionWeights, Judge
from termrl.rewards.llm_judge import JudgeReplyError, LLMJudge, parse_judge_reply, render_trajectory
from termrl.rewards.rubric import RubricJudge


# --- registry -------------------------------------------------------------------------------------

JUDGES = ("rubric", "llm", "none")


def get_judge(name: str, policy: Policy | None = None) -> Judge | None:
    """A judge by short name: ``rubric`` (default), ``llm`` (needs ``policy``), ``none`` (returns None:
    the reward comes from the tests alone), or ``package.module:Class`` for a plugin (built with
    ``policy=`` when one is given).

    Raises:
        ValueError: an unknown name, a plugin that cannot be loaded, or ``llm`` without a policy.
    """
    if name == "rubric":
        return RubricJudge()
    if name == "none":
        return None
    if name == "llm":
        if policy is None:
            raise ValueError("judge 'llm' needs a policy (the model that judges) -- fix: pass policy=, "
                             "or use the offline judge 'rubric'")
        return LLMJudge(policy)
    if ":" in name:
        try:
            cls = load_plugin(name)
        except ValueError as exc:
            raise ValueError(f"cannot load judge {name!r}: {exc} -- fix: check the module:Class path") from exc
        return cls(policy=policy) if policy is not None else cls()
    raise ValueError(f"unknown judge {name!r} -- fix: use one of {', '.join(JUDGES)} or package.module:Class")

__all__ = ["CRITERIA", "CriterionWeights", "Judge", "JudgeReplyError", "LLMJudge", "RubricJudge", "get_judge",
           "parse_judge_reply", "render_trajectory"]
