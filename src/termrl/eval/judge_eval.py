"""judge-eval: does a judge score labelled trajectories the way a careful human would?

A case is a trajectory with the instruction the agent got and the score range a human
reviewer expects (``datasets/judge-eval/*.json``, one case per file, or ``*.jsonl``)::

    {"name": "...", "kind": "good | bad | gaming | truncated | parse_error | ...",
     "instruction": "...", "trajectory": {trajectory_to_json form},
     "expected": {"min": 0.7, "max": 1.0}, "note": "why this range (optional)"}

The report gives each case's score and whether it fell in its range; ``agreement`` is the share
of cases in range, and ``rank_agreement`` the Spearman correlation between the expected
midpoints and the scores (does the judge order the cases as the human does?). A judge
failure on a case is recorded on that case (no score, not in range), not raised.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from termrl.errors import JudgeError
from termrl.rewards.base import Judge
from termrl.rewards.judges import get_judge
from termrl.types import Trajectory, trajectory_from_json

DEFAULT_CASES = Path(__file__).resolve().parents[3] / "datasets" / "judge-eval"
"""The shipped cases (in a source checkout)."""


class CaseError(ValueError):
    """A judge-eval case file is malformed; the message names the file, the field and the fix."""


@dataclass(frozen=True)
class JudgeCase:
    name: str
    kind: str
    instruction: str
    trajectory: Trajectory
    expected_min: float
    expected_max: float
    note: str = ""
    source: str = ""
    """The file the case came from."""

    @property
    def midpoint(self) -> float:
        return (self.expected_min + self.expected_max) / 2


@dataclass(frozen=True)
class CaseResult:
    name: str
    kind: str
    expected_min: float
    expected_max: float
    score: float | None
    """None when the judge failed on this case (see ``error``)."""
    within: bool
    parts: dict[str, float] = field(default_factory=dict)
    error: str | None = None


@dataclass(frozen=True)
class JudgeEvalReport:
    judge: str
    results: tuple[CaseResult, ...]
    agreement: float
    """Share of cases whose score fell within the expected range (a failed case counts as outside)."""
    rank_agreement: float | None
    """Spearman correlation of expected midpoints and scores over the scored cases (None: fewer than 2)."""
    n_errors: int

    def to_json(self) -> dict[str, Any]:
        return {"judge": self.judge, "n_cases": len(self.results), "agreement": self.agreement,
                "rank_agreement": self.rank_agreement, "n_errors": self.n_errors,
                "cases": [asdict(r) for r in self.results]}


def _case_from_json(data: Any, source: str) -> JudgeCase:
    def need(key: str, kind: type | tuple[type, ...], fix: str) -> Any:
        if not isinstance(data, dict) or key not in data:
            raise CaseError(f"{source}: missing field '{key}' -- fix: {fix}")
        if not isinstance(data[key], kind):
            raise CaseError(f"{source}: field '{key}' has the wrong type ({type(data[key]).__name__}) -- fix: {fix}")
        return data[key]

    name = need("name", str, "give the case a short unique name")
    kind = need("kind", str, "say what it shows: good, bad, gaming, truncated, parse_error ...")
    instruction = need("instruction", str, "copy the task instruction the agent was given")
    traj_json = need("trajectory", dict, "store the trajectory as trajectory_to_json() writes it")
    expected = need("expected", dict, 'write the expected score range, e.g. {"min": 0.6, "max": 0.9}')
    lo, hi = expected.get("min"), expected.get("max")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (lo, hi)) or not 0 <= lo <= hi <= 1:
        raise CaseError(f"{source}: expected = {expected!r} -- fix: give numbers 0 <= min <= max <= 1")
    try:
        trajectory = trajectory_from_json(traj_json)
    except (KeyError, TypeError, ValueError) as exc:
        raise CaseError(f"{source}: trajectory does not load ({type(exc).__name__}: {exc}) "
                        "-- fix: store it as trajectory_to_json() writes it") from exc
    return JudgeCase(name, kind, instruction, trajectory, float(lo), float(hi), str(data.get("note", "")), source)


def load_cases(path: Path | str = DEFAULT_CASES) -> list[JudgeCase]:
    """Cases from a folder of ``*.json`` / ``*.jsonl`` files, or from one such file, sorted by name.

    Raises:
        CaseError: the path holds no cases, a file is not valid JSON, a case lacks a field, or
            two cases share a name.
    """
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix in (".json", ".jsonl"))
    elif path.is_file():
        files = [path]
    else:
        raise CaseError(f"{path}: no such file or folder -- fix: give a folder of judge-eval cases "
                        f"(the shipped ones are in {DEFAULT_CASES})")
    cases: list[JudgeCase] = []
    for file in files:
        text = file.read_text(encoding="utf-8")
        rows = ([(f"{file}:{i}", line) for i, line in enumerate(text.splitlines(), 1) if line.strip()]
                if file.suffix == ".jsonl" else [(str(file), text)])
        for source, raw in rows:
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise CaseError(f"{source}: not valid JSON ({exc.msg} at line {exc.lineno}) -- fix the file") from exc
            cases.append(_case_from_json(data, source))
    if not cases:
        raise CaseError(f"{path}: no judge-eval cases found -- fix: add *.json case files")
    names = [c.name for c in cases]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise CaseError(f"{path}: case names used twice: {', '.join(dupes)} -- fix: rename them")
    return sorted(cases, key=lambda c: c.name)


def _ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rank correlation (Pearson correlation of average ranks); None if undefined."""
    if len(xs) != len(ys) or len(xs) < 2:
        return None
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx, vy = sum((a - mx) ** 2 for a in rx), sum((b - my) ** 2 for b in ry)
    if vx == 0 or vy == 0:
        return None
    return cov / (vx * vy) ** 0.5


def run_judge_eval(judge: Judge, cases: list[JudgeCase]) -> JudgeEvalReport:
    """Score every case with ``judge`` and compare with the expected ranges."""
    results = []
    for case in cases:
        try:
            verdict = judge.score(case.instruction, case.trajectory)
        except JudgeError as exc:
            results.append(CaseResult(case.name, case.kind, case.expected_min, case.expected_max, None, False,
                                      error=str(exc)))
            continue
        within = case.expected_min - 1e-9 <= verdict.value <= case.expected_max + 1e-9
        results.append(CaseResult(case.name, case.kind, case.expected_min, case.expected_max, verdict.value, within,
                                  dict(verdict.parts)))
    scored = [(c.midpoint, r.score) for c, r in zip(cases, results) if r.score is not None]
    return JudgeEvalReport(
        judge=getattr(judge, "name", type(judge).__name__),
        results=tuple(results),
        agreement=sum(r.within for r in results) / len(results) if results else 0.0,
        rank_agreement=spearman([m for m, _ in scored], [s for _, s in scored]),
        n_errors=sum(r.score is None for r in results),
    )


_ABBREV = {"action_success": "act", "task_management": "todo", "phase_adherence": "phase", "tool_use": "tool",
           "integrity": "integ"}


def judge_eval_command(path: Path | str | None, judge_name: str = "rubric", as_json: bool = False, *,
                       policy=None, min_agreement: float | None = None) -> int:
    """``termrl judge-eval``: run a judge over labelled cases and print a table (or JSON) with the agreement.

    Returns the exit status: 0 done, 1 agreement below ``min_agreement``, 2 bad cases or judge.
    """
    from rich.console import Console
    from rich.table import Table

    out, err = Console(), Console(stderr=True)
    try:
        cases = load_cases(path or DEFAULT_CASES)
        judge = get_judge(judge_name, policy)
    except (CaseError, ValueError) as exc:
        err.print(f"[bold red]error:[/] {exc}")
        return 2
    if judge is None:
        err.print("[bold red]error:[/] judge 'none' scores nothing -- fix: use --judge rubric or llm")
        return 2
    report = run_judge_eval(judge, cases)
    if as_json:
        print(json.dumps(report.to_json(), indent=1))
    else:
        table = Table(title=f"judge-eval: {report.judge} on {len(cases)} cases")
        for col in ("case", "kind", "expected", "score", "in range", "parts / error"):
            table.add_column(col)
        for r in report.results:
            score = "-" if r.score is None else f"{r.score:.2f}"
            parts = r.error or " ".join(f"{_ABBREV.get(k, k)}={v:.2f}" for k, v in r.parts.items())
            table.add_row(r.name, r.kind, f"{r.expected_min:.2f}-{r.expected_max:.2f}", score,
                          "[green]yes[/]" if r.within else "[red]no[/]", parts)
        out.print(table)
        within = sum(r.within for r in report.results)
        rank = "n/a" if report.rank_agreement is None else f"{report.rank_agreement:.3f}"
        out.print(f"agreement {within}/{len(report.results)} = {report.agreement:.3f}; "
                  f"rank agreement (Spearman) {rank}; judge errors {report.n_errors}")
    if min_agreement is not None and report.agreement < min_agreement:
        return 1
    return 0
