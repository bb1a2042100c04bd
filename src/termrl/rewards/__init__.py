"""Rewards: the verifier's test score, the judges' process score, and how they combine."""

from termrl.rewards.base import CRITERIA, CriterionWeights, Judge
from termrl.rewards.judges import get_judge
from termrl.rewards.llm_judge import JudgeReplyError, LLMJudge, parse_judge_reply, render_trajectory
from termrl.rewards.rubric import RubricJudge
from termrl.rewards.scoring import RewardParts, RewardWeights, combine, episode_reward, resolved, test_score

__all__ = ["CRITERIA", "CriterionWeights", "Judge", "JudgeReplyError", "LLMJudge", "RewardParts", "RewardWeights",
           "RubricJudge", "combine", "episode_reward", "get_judge", "parse_judge_reply", "render_trajectory", "resolved",
           "test_score"]
