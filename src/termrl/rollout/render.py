"""`termrl show`: one episode's trajectory, readable in a terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from termrl.types import trajectory_from_json


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


def render_episode(row: dict[str, Any], console: Console, observation_chars: int = 1500) -> None:
    tests = row.get("tests") or {}
    header = (f"[bold]{row.get('task')}[/]  agent={row.get('agent')} policy={row.get('policy') or '-'}  "
              f"reward={row.get('reward', 0):.3f} test={row.get('test_score', '-')} "
              f"judge={row.get('judge_score', '-')}  resolved={row.get('resolved')}  "
              f"tests {sum(tests.values())}/{len(tests)}  end={row.get('end_reason') or '-'}")
    console.print(Panel(header, expand=False))
    if row.get("error"):
        console.print(f"[red]error at {row['error']['boundary']}:[/] {row['error']['message']}")
    if row.get("tampered"):
        problem = (row.get("verifier") or {}).get("problem") or ""
        console.print(f"[bold red]tampered with the verification toolchain (scored 0):[/] {problem}")
        for path in row["tampered"]:
            console.print(f"  [red]{path}[/]")
    if row.get("judge_error"):
        console.print(f"[yellow]judge failed:[/] {row['judge_error']}")
    if "trajectory" not in row:
        console.print("(no trajectory: a reference agent)")
        return
    traj = trajectory_from_json(row["trajectory"])
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
            output = obs.output if len(obs.output) <= observation_chars else (
                obs.output[: observation_chars // 2] + "\n[...]\n" + obs.output[-observation_chars // 2:])
            console.print(Text(output, style="green" if obs.ok else "red"))
    if traj.todos:
        console.rule("todos")
        for t in traj.todos:
            console.print(f"[{'x' if t.get('done') else ' '}] {t.get('text')}")
    console.rule(f"end: {traj.end_reason}" + (f" — {traj.finish_message}" if traj.finish_message else ""))
    for name, ok in tests.items():
        console.print(f"{'[green]PASS[/]' if ok else '[red]FAIL[/]'} {name}")
