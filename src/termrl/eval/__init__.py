"""Evaluation: judge-eval (does a judge agree with labelled trajectories?)."""

from termrl.eval.judge_eval import (CaseError, CaseResult, JudgeCase, JudgeEvalReport, judge_eval_command, load_cases,
                                    run_judge_eval, spearman)

__all__ = ["CaseError", "CaseResult", "JudgeCase", "JudgeEvalReport", "judge_eval_command", "load_cases",
           "run_judge_eval", "spearman"]
