"""`termrl export RUN --to hf DIR`: a run's episodes as a Hugging Face ``datasets`` dataset.

One row per episode: the chat messages, reward parts, per-test results, the judge's criteria,
the token ids with their trainable mask and sampled log-probs (the trainer's view), and the
episode's metadata. The dataset is saved with ``save_to_disk`` (Arrow files) and loads back with
``datasets.load_from_disk``. ``resolved_only`` writes instead a supervised fine-tuning set: the
messages of resolved episodes in chat format.

Nested values whose keys vary between episodes (native tool calls, verifier details) are kept as
JSON strings so every row has the same Arrow schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from termrl.eval.runs import SOURCES, RunData, end_reason, error_boundary, num, tampered


def _features():
    from datasets import Features, Sequence, Value

    message = {"role": Value("string"), "content": Value("string"), "tool_calls": Value("string"),
               "tool_call_id": Value("string"), "name": Value("string")}
    return Features({
        "run": Value("string"), "source": Value("string"), "key": Value("string"), "step": Value("int64"),
        "index": Value("int64"), "task": Value("string"), "agent": Value("string"), "policy": Value("string"),
        "messages": [message],
        "reward": Value("float64"), "test_score": Value("float64"), "judge_score": Value("float64"),
        "judge_parts": [{"criterion": Value("string"), "score": Value("float64")}],
        "judge_explanation": Value("string"), "judge_error": Value("string"),
        "tests": [{"name": Value("string"), "passed": Value("bool")}],
        "resolved": Value("bool"), "terminated": Value("bool"), "truncated": Value("bool"),
        "tampered": Value("bool"), "end_reason": Value("string"), "error_boundary": Value("string"),
        "error_message": Value("string"), "n_turns": Value("int64"), "n_tokens": Value("int64"),
        "duration_s": Value("float64"), "finish_message": Value("string"), "todos": Value("string"),
        "token_ids": Sequence(Value("int32")), "trainable_mask": Sequence(Value("int8")),
        "logprobs": Sequence(Value("float32")), "verifier": Value("string"),
    })


def _int(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def episode_record(run: str, source: str, row: dict[str, Any]) -> dict[str, Any]:
    """One episode row (episodes/rollouts/eval JSONL) as a dataset record."""
    traj = row.get("trajectory") or {}
    messages = [{"role": str(m.get("role", "")), "content": str(m.get("content") or ""),
                 "tool_calls": json.dumps(m["tool_calls"]) if m.get("tool_calls") else None,
                 "tool_call_id": m.get("tool_call_id"), "name": m.get("name")} for m in traj.get("messages") or []]
    token_ids: list[int] = []
    mask: list[int] = []
    logprobs: list[float] = []
    for seg in traj.get("segments") or []:
        ids = list(seg.get("token_ids") or [])
        token_ids += ids
        mask += [1 if seg.get("trainable") else 0] * len(ids)
        lp = list(seg.get("logprobs") or [])
        logprobs += lp if len(lp) == len(ids) else [0.0] * len(ids)
    error = row.get("error") if isinstance(row.get("error"), dict) else {}
    return {
        "run": run, "source": source, "key": row.get("key"), "step": _int(row.get("step")),
        "index": _int(row.get("index")), "task": str(row.get("task", "")), "agent": row.get("agent"),
        "policy": row.get("policy"), "messages": messages,
        "reward": num(row, "reward"), "test_score": num(row, "test_score"), "judge_score": num(row, "judge_score"),
        "judge_parts": [{"criterion": k, "score": float(v)} for k, v in (row.get("judge_parts") or {}).items()],
        "judge_explanation": row.get("judge_explanation"), "judge_error": row.get("judge_error"),
        "tests": [{"name": k, "passed": bool(v)} for k, v in (row.get("tests") or {}).items()],
        "resolved": bool(row.get("resolved")), "terminated": bool(row.get("terminated")),
        "truncated": bool(row.get("truncated")), "tampered": tampered(row), "end_reason": end_reason(row),
        "error_boundary": error_boundary(row), "error_message": error.get("message"),
        "n_turns": _int(row.get("n_turns")), "n_tokens": _int(row.get("n_tokens")),
        "duration_s": num(row, "duration_s"), "finish_message": traj.get("finish_message"),
        "todos": json.dumps(traj.get("todos") or []), "token_ids": token_ids, "trainable_mask": mask,
        "logprobs": logprobs, "verifier": json.dumps(row.get("verifier")) if row.get("verifier") else None,
    }


def export_hf(run: RunData, out: str | Path, *, resolved_only: bool = False,
              sources: tuple[str, ...] = SOURCES) -> tuple[Path, int]:
    """Save ``run``'s episodes (from ``sources``) as a dataset at ``out``; returns the path and row count.

    ``resolved_only``: an SFT set instead -- ``messages`` (chat format: role, content) plus task,
    reward and source of each resolved episode that has a trajectory.

    Raises:
        ValueError: ``datasets`` is not installed, or nothing is left to export (names the run and why).
    """
    try:
        from datasets import Dataset, Features, Value
    except ImportError as exc:
        raise ValueError("termrl export --to hf needs the datasets package -- fix: pip install 'termrl[hf]'") from exc
    records = [episode_record(run.name, source, row) for source in sources for row in run.rows(source)]
    if resolved_only:
        records = [{"messages": [{"role": m["role"], "content": m["content"]} for m in r["messages"]],
                    "task": r["task"], "reward": r["reward"], "source": r["source"], "key": r["key"]}
                   for r in records if r["resolved"] and r["messages"]]
        features = Features({"messages": [{"role": Value("string"), "content": Value("string")}],
                             "task": Value("string"), "reward": Value("float64"), "source": Value("string"),
                             "key": Value("string")})
    else:
        features = _features()
    if not records:
        what = "resolved episodes with a trajectory" if resolved_only else "episodes"
        raise ValueError(f"{run.path}: no {what} to export (sources: {', '.join(sources)})")
    out = Path(out)
    Dataset.from_list(records, features=features).save_to_disk(str(out))
    return out, len(records)
