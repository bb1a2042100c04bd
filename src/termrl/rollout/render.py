"""`termrl show`: one episode's trajectory, readable in a terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from termrl.text import head_tail
from termrl.types import EpisodeResult, Trajectory


def load_row(spec: str) -> dict[str, Any]:
    """``DIR/episodes.jsonl[:N]`` (N from 1, default the last row), a run folder, or a JSON file."""
    path_text, _, index = spec.rpartition(":") if spec.rpartition(":")[2].isdigit() else (spec, "", "")
    path = Path(path_text)
    if path.is_dir():
        path = path / "episodes.jsonl"
    if not path.is_file():
        raise ValueError(f"{path}: no such file -- pass DIR/episodes.jsonl[:N] or an episode JSON file")
    if path.suffix == ".json":
        return json.loads(path.read_text())
    rows = [line for line in path.read_text().splitlines() if line.strip()]
    if not rows:
        raise ValueError(f"{path}: no episodes in it")
    n = int(index) if index else len(rows)
    if not 1 <= n <= len(rows):
        raise ValueError(f"{path}: has {len(rows)} episodes; N must be 1..{len(rows)}")
    return json.loads(rows[n - 1])


def render_episode(result: EpisodeResult, console: Console, observation_chars: int = 1500) -> None:
    tests = result.tests
    test = f"{result.test_score:.3f}"
    judge = "-" if result.judge_score is None else f"{result.judge_score:.3f}"
    header = (f"[bold]{result.task}[/]  agent={result.agent} policy={result.policy or '-'}  "
              f"reward={result.reward:.3f} test={test} judge={judge}  resolved={result.resolved}  "
              f"tests {sum(tests.values())}/{len(tests)}  end={result.end_reason or '-'}")
    console.print(Panel(header, expand=False))
    if result.error:
        console.print(f"[red]error at {result.error.boundary}:[/] {result.error.message}")
    if result.judge_error:
        console.print(f"[yellow]judge failed:[/] {result.judge_error}")
    if result.tampered:
        problem = result.verifier.problem if result.verifier is not None else ""
        console.print(f"[bold red]tampered with the verification toolchain (scored 0):[/] {problem or ''}")
        for path in result.tampered:
            console.print(f"  [red]{path}[/]")
    traj = result.trajectory
    if traj is None:
        console.print("(no trajectory: a reference agent)")
        if result.agent_output_tail:
            console.print(Panel(Text(result.agent_output_tail), title=f"output (exit {result.agent_exit_code})"))
    else:
        _render_trajectory(traj, console, observation_chars)
    for name, ok in tests.items():
        console.print(f"{'[green]PASS[/]' if ok else '[red]FAIL[/]'} {name}")


def _render_trajectory(traj: Trajectory, console: Console, observation_chars: int) -> None:
    instruction = next((m.content for m in traj.messages if m.role == "user"), "")
    console.print(Panel(Text(instruction), title="instruction", border_style="blue"))
    for step in traj.steps:
        console.rule(f"turn {step.turn + 1}  ({step.generate_s:.1f}s model, {step.act_s:.1f}s tools, "
                     f"{step.n_completion_tokens} tokens)")
        console.print(Text(step.reply.strip(), style="dim"))
        if step.parse_error:
            console.print(Text(f"parse error: {step.parse_error}", style="red"))
        for action, obs in zip(step.actions, step.observations):
            args = json.dumps(action.args, ensure_ascii=False)
            console.print(Text(f"▶ {action.tool} {args[:300]}", style="bold cyan"))
            output, _ = head_tail(obs.output, observation_chars)
            console.print(Text(output, style="green" if obs.ok else "red"))
    if traj.todos:
        console.rule("todos")
        for t in traj.todos:
            console.print(f"[{'x' if t.get('done') else ' '}] {t.get('text')}", markup=False)
    console.rule(f"end: {traj.end_reason}" + (f" — {traj.finish_message}" if traj.finish_message else ""))
