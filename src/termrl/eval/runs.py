"""Reading a run folder back: its episodes, training rollouts, held-out evaluations, metrics and config.

A run folder is what ``termrl run`` / ``termrl eval`` (``episodes.jsonl``) or ``termrl train``
(``rollouts.jsonl``, ``eval.jsonl``, ``metrics.jsonl``, ``config.json``) left behind. The report and
the exports read it through :func:`load_run`. Every episode row goes through the typed record
(``episode_from_row`` then ``episode_to_row``), so rows of older termrl versions come out in
today's shape; a line cut short by a crash, or a row that is not an episode, is skipped and
counted, so a partial run still renders.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from termrl.eval.report import pass_at_k
from termrl.types import episode_from_row, episode_to_row

SOURCES = ("episodes", "rollouts", "eval")
"""The episode files of a run folder, by name (``<source>.jsonl``)."""


@dataclass(frozen=True)
class RunData:
    """One run folder, read."""

    name: str
    path: Path
    episodes: dict[str, list[dict[str, Any]]]
    """Source name (episodes | rollouts | eval) -> its rows, in file order."""
    metrics: list[dict[str, Any]] = field(default_factory=list)
    config: dict[str, Any] | None = None
    skipped_lines: dict[str, int] = field(default_factory=dict)
    """Lines that were not JSON objects (a crash mid-write), per file."""

    def rows(self, source: str | None = None) -> list[dict[str, Any]]:
        if source is not None:
            return self.episodes.get(source, [])
        return [r for s in SOURCES for r in self.episodes.get(s, [])]


def read_jsonl(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The JSON-object lines of ``path`` and how many other lines it had."""
    rows, skipped = [], 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                skipped += 1
                continue
            if isinstance(row, dict):
                rows.append(row)
            else:
                skipped += 1
    return rows, skipped


def load_run(path: str | Path, name: str | None = None) -> RunData:
    """Read a run folder (or one ``*.jsonl`` episode file).

    Raises:
        ValueError: the path holds none of ``episodes.jsonl``, ``rollouts.jsonl``, ``eval.jsonl``,
            ``metrics.jsonl`` (the message names the path and what a run folder holds).
    """
    path = Path(path)
    files: dict[str, Path] = {}
    if path.is_file() and path.suffix == ".jsonl":
        files[path.stem if path.stem in SOURCES else "episodes"] = path
        folder = path.parent
    elif path.is_dir():
        folder = path
        files = {s: path / f"{s}.jsonl" for s in SOURCES if (path / f"{s}.jsonl").is_file()}
    else:
        raise ValueError(f"{path}: no such run folder -- pass the --out folder of termrl run/eval/train")
    metrics_path = folder / "metrics.jsonl"
    if not files and not metrics_path.is_file():
        raise ValueError(f"{path}: not a run folder (no episodes.jsonl, rollouts.jsonl, eval.jsonl or metrics.jsonl) "
                         "-- pass the --out folder of termrl run/eval/train")
    episodes, skipped = {}, {}
    for source, file in files.items():
        rows, n = read_jsonl(file)
        episodes[source] = []
        for row in rows:
            try:
                episodes[source].append(episode_to_row(episode_from_row(row)))
            except (ValueError, KeyError, TypeError):  # not an episode row
                n += 1
        if n:
            skipped[file.name] = n
    metrics: list[dict[str, Any]] = []
    if metrics_path.is_file():
        metrics, n = read_jsonl(metrics_path)
        if n:
            skipped[metrics_path.name] = n
    config = None
    if (folder / "config.json").is_file():
        try:
            config = json.loads((folder / "config.json").read_text())
        except json.JSONDecodeError:
            skipped["config.json"] = 1
    return RunData(name or folder.name, folder, episodes, metrics, config, skipped)


# --- what a row says, read defensively ---------------------------------------------------------

def num(row: dict[str, Any], key: str) -> float | None:
    value = row.get(key)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def tampered(row: dict[str, Any]) -> bool:
    """The verifier flagged the episode as tampering with the verification (the row's ``tampered``)."""
    return bool(row.get("tampered") or (row.get("verifier") or {}).get("tampered"))


def end_reason(row: dict[str, Any]) -> str:
    reason = row.get("end_reason")
    if reason:
        return str(reason)
    if row.get("error"):
        return "error"
    if row.get("truncated"):
        return "truncated"
    return "finished" if row.get("terminated") else "-"


def error_boundary(row: dict[str, Any]) -> str | None:
    error = row.get("error")
    if isinstance(error, dict):
        return str(error.get("boundary") or "unknown")
    return "unknown" if error else None


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Headline numbers of a list of episode rows: resolved rate, pass@1/pass@k, mean reward and its
    parts, errors by boundary, tampering flags, truncations by reason, per-task rows."""
    by_task: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_task[str(r.get("task", "?"))].append(r)
    k = min((len(v) for v in by_task.values()), default=1)

    def mean(values: list[float]) -> float | None:
        return sum(values) / len(values) if values else None

    tasks = {}
    for name in sorted(by_task):
        group = by_task[name]
        c = sum(bool(r.get("resolved")) for r in group)
        tasks[name] = {
            "episodes": len(group), "resolved": c, "pass_at_1": pass_at_k(len(group), c, 1),
            "pass_at_k": pass_at_k(len(group), c, k),
            "mean_reward": mean([v for r in group if (v := num(r, "reward")) is not None]),
            "mean_test": mean([v for r in group if (v := num(r, "test_score")) is not None]),
            "mean_judge": mean([v for r in group if (v := num(r, "judge_score")) is not None]),
            "errors": sum(error_boundary(r) is not None for r in group),
        }
    n = len(rows)
    return {
        "episodes": n, "tasks": tasks, "k": k,
        "resolved_rate": sum(bool(r.get("resolved")) for r in rows) / n if n else None,
        "pass_at_1": mean([t["pass_at_1"] for t in tasks.values()]),
        "pass_at_k": mean([t["pass_at_k"] for t in tasks.values()]),
        "mean_reward": mean([v for r in rows if (v := num(r, "reward")) is not None]),
        "mean_test": mean([v for r in rows if (v := num(r, "test_score")) is not None]),
        "mean_judge": mean([v for r in rows if (v := num(r, "judge_score")) is not None]),
        "judge_errors": sum(bool(r.get("judge_error")) for r in rows),
        "errors_by_boundary": dict(Counter(b for r in rows if (b := error_boundary(r)) is not None)),
        "tampered": sum(tampered(r) for r in rows),
        "truncated_by_reason": dict(Counter(end_reason(r) for r in rows if r.get("truncated"))),
        "end_reasons": dict(Counter(end_reason(r) for r in rows)),
    }
