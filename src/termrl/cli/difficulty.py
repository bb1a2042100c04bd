"""`termrl tasks difficulty`: measure each task's pass rate under a policy, and store it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from termrl.cli.app import tasks_app
from termrl.cli.common import JobsOpt, PolicyOpt, agent_factory, console, episode_config, fail, run_all, setup_logging
from termrl.errors import TermrlError


@tasks_app.command("difficulty")
def tasks_difficulty(
    tasks: list[Path] = typer.Argument(..., help="Task folders, or folders of tasks."),
    policy: str = PolicyOpt,
    model: Optional[str] = typer.Option(None, "--model", "-m", help="Model path (hf) or name (openai); "
                                        "default: the embedded SmolLM2-135M-Instruct."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible endpoint (openai policy)."),
    agent: str = typer.Option("termrl", "--agent", "-a", help="termrl (the policy) | oracle | nop"),
    k: int = typer.Option(8, "--k", min=1, help="Episodes per task."),
    action_format: str = typer.Option("bash_block", "--format", help="xml | tool_call | bash_block"),
    max_turns: int = typer.Option(3, "--max-turns", min=1),
    max_tokens: int = typer.Option(80, "--max-tokens", min=1, help="Tokens per model reply."),
    temperature: float = typer.Option(0.7, "--temperature", min=0.0),
    key: Optional[str] = typer.Option(None, "--key", help="Store the estimate under this policy key "
                                      "(default: hf:<model name>, openai:<model>, or the agent)."),
    out: Path = typer.Option(Path("runs/difficulty"), "--out", "-o", help="Folder for episodes.jsonl."),
    jobs: int = JobsOpt,
    as_json: bool = typer.Option(False, "--json", help="One JSON object per task per line."),
) -> None:
    """Run K episodes per task; store the pass rate (resolved share, 95% Wilson interval) keyed by policy and
    task digest, beside the task's validation record. Episodes with an error (sandbox, model, verifier) do not count."""
    from termrl.tasks import load_tasks
    from termrl.tasks.passrate import policy_key, save_pass_rate

    setup_logging(False)
    try:
        make_agent = agent_factory(agent, policy, model, action_format, max_turns, temperature, base_url, max_tokens)
    except (TermrlError, ValueError) as exc:
        fail(str(exc))
    label = key or policy_key(agent if agent != "termrl" else policy, model)
    report, results = run_all(tasks, make_agent, episode_config(None, True, None), k, jobs, out, "difficulty")
    by_task = {t.name: t for t in report.tasks}
    estimates, errors = [], {}
    for name, task in sorted(by_task.items()):
        mine = [r for r in results if r.task == name]
        counted = [r for r in mine if r.error is None]  # a failed sandbox or model call says nothing of the task
        errors[name] = len(mine) - len(counted)
        estimates.append(save_pass_rate(task, label, sum(r.resolved for r in counted), len(counted)))
    if as_json:
        for e in estimates:
            print(json.dumps({**e.to_json(), "infra_errors": errors[e.task]}), flush=True)
        return
    table = Table(title=f"pass rate of {label} ({k} episodes per task)")
    for col in ("task", "difficulty", "resolved", "rate", "95% interval", "infra errors"):
        table.add_column(col)
    for e in estimates:
        table.add_row(e.task, by_task[e.task].metadata.difficulty, f"{e.resolved}/{e.episodes}", f"{e.rate:.2f}",
                      f"[{e.low:.2f}, {e.high:.2f}]", str(errors[e.task]))
    console.print(table)
    console.print(f"stored under {label!r}; filter training tasks with tasks.pass_rate: [low, high]")
