"""`termrl run`, `show`, `eval`, `judge-eval`: episodes on tasks and their results."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from termrl.cli.app import app
from termrl.cli.common import (
    CapacityOpt,
    GraceOpt,
    HostOpt,
    ImageConfigOpt,
    JobsOpt,
    Placement,
    PolicyOpt,
    ResumeOpt,
    WarmPoolOpt,
    agent_factory,
    build_judge,
    console,
    episode_config,
    fail,
    run_all,
    setup_logging,
)
from termrl.errors import TermrlError
from termrl.types import EpisodeResult


@app.command()
def run(
    tasks: list[Path] = typer.Argument(..., help="Task folders, or folders of tasks."),
    agent: str = typer.Option("oracle", "--agent", "-a", help="termrl | oracle | nop | module:Class"),
    policy: str = PolicyOpt,
    model: Optional[str] = typer.Option(None, "--model", "-m", help="Model path (hf) or name (openai); "
                                        "default: the embedded SmolLM2-135M-Instruct."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible endpoint (openai policy)."),
    action_format: str = typer.Option("xml", "--format", help="xml | tool_call | bash_block"),
    max_turns: int = typer.Option(30, "--max-turns", min=1),
    max_tokens: int = typer.Option(512, "--max-tokens", min=1, help="Tokens per model reply."),
    temperature: float = typer.Option(0.7, "--temperature", min=0.0),
    judge: str = typer.Option("rubric", "--judge", help="rubric | llm | none (llm uses the openai backend)"),
    out: Path = typer.Option(Path("runs/latest"), "--out", "-o", help="Output folder (episodes.jsonl is appended)."),
    repeats: int = typer.Option(1, "--repeats", "-n", min=1, help="Episodes per task."),
    jobs: int = JobsOpt,
    image_config: Optional[Path] = ImageConfigOpt,
    verifier_network: bool = typer.Option(True, help="Network for the verifier phase (test tooling installs)."),
    resume: bool = ResumeOpt,
    grace: float = GraceOpt,
    host: Optional[list[str]] = HostOpt,
    capacity: int = CapacityOpt,
    warm_pool: int = WarmPoolOpt,
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Run an agent on tasks; write OUT/episodes.jsonl and print a summary table."""
    setup_logging(verbose)
    try:
        make_agent = agent_factory(agent, policy, model, action_format, max_turns, temperature, base_url,
                                    max_tokens)
        judge_obj = build_judge(judge, None, base_url) if agent == "termrl" else None
    except (TermrlError, ValueError) as exc:
        fail(str(exc))
    report, results = run_all(tasks, make_agent, episode_config(image_config, verifier_network, judge_obj),
                              repeats, jobs, out, agent, resume=resume, grace_s=grace,
                              placement=Placement(host or [], capacity, warm_pool))
    _print_episodes(results)
    console.print(f"episodes written to {out / 'episodes.jsonl'}")
    if report.errors:
        raise typer.Exit(1)


def _print_episodes(results: list[EpisodeResult]) -> None:
    table = Table(title="episodes")
    for col in ("task", "agent", "reward", "test", "judge", "resolved", "tests passed", "turns", "ended", "tampered",
                "error", "seconds"):
        table.add_column(col)
    for r in sorted(results, key=lambda r: r.task):
        passed = f"{sum(r.tests.values())}/{len(r.tests)}" if r.tests else "-"
        ended = r.end_reason or ("truncated" if r.truncated else ("terminated" if r.terminated else "-"))
        error = f"{r.error.boundary}: {r.error.message[:60]}" if r.error else ""
        if r.judge_error:
            error += f" judge: {r.judge_error[:40]}"
        table.add_row(r.task, r.agent, f"{r.reward:.2f}", f"{r.test_score:.2f}",
                      "-" if r.judge_score is None else f"{r.judge_score:.2f}", "yes" if r.resolved else "no", passed,
                      str(r.n_turns) if r.trajectory is not None else "-", ended,
                      f"[red]{len(r.tampered)} paths[/]" if r.tampered else "-", error, f"{r.duration_s:.1f}")
    console.print(table)
    n = len(results)
    if n:
        console.print(f"resolved {sum(r.resolved for r in results)}/{n}, "
                      f"mean reward {sum(r.reward for r in results) / n:.3f}, "
                      f"errors {sum(r.error is not None for r in results)}, "
                      f"tampered {sum(bool(r.tampered) for r in results)}")
        judge_failed = sum(bool(r.judge_error) for r in results)
        if judge_failed:
            console.print(f"[yellow]the judge failed on {judge_failed} episode(s): their reward is the tests' score "
                          "alone (judge_error in their rows)[/]")


@app.command()
def show(episode: str = typer.Argument(..., help="DIR/episodes.jsonl[:N] (N-th row, from 1; default the last) "
                                       "or a JSON file with one episode row.")) -> None:
    """Render one episode's trajectory readably."""
    from termrl.rollout.render import load_row, render_episode
    from termrl.types import episode_from_row

    try:
        result = episode_from_row(load_row(episode))
    except (OSError, ValueError) as exc:
        fail(str(exc))
    render_episode(result, console)


@app.command("judge-eval")
def judge_eval(
    path: Path = typer.Argument(Path("datasets/judge-eval"), help="Folder or file of labelled cases."),
    judge: str = typer.Option("rubric", "--judge", help="rubric | llm"),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="OpenAI-compatible endpoint for --judge llm."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Score labelled trajectories with a judge and print its agreement with the labels."""
    from termrl.eval.judge_eval import judge_eval_command

    policy = None
    if judge == "llm":
        from termrl.policies import get_policy

        try:
            policy = get_policy("openai", **({"base_url": base_url} if base_url else {}))
        except TermrlError as exc:
            fail(str(exc))
    raise typer.Exit(judge_eval_command(path, judge, as_json, policy=policy))


@app.command("eval")
def eval_cmd(
    tasks: list[Path] = typer.Option(..., "--tasks", "-t", help="Task folders or folders of tasks (repeatable)."),
    policy: str = PolicyOpt,
    model: Optional[str] = typer.Option(None, "--model", "-m", help="Model path (hf) or name (openai)."),
    base_url: Optional[str] = typer.Option(None, "--base-url"),
    k: int = typer.Option(1, "--k", min=1, help="Episodes per task (pass@k)."),
    action_format: str = typer.Option("xml", "--format"),
    max_turns: int = typer.Option(30, "--max-turns", min=1),
    max_tokens: int = typer.Option(512, "--max-tokens", min=1, help="Tokens per model reply."),
    temperature: float = typer.Option(0.7, "--temperature", min=0.0),
    judge: str = typer.Option("rubric", "--judge"),
    out: Path = typer.Option(Path("runs/eval"), "--out", "-o"),
    jobs: int = JobsOpt,
    resume: bool = ResumeOpt,
    grace: float = GraceOpt,
    host: Optional[list[str]] = HostOpt,
    capacity: int = CapacityOpt,
    warm_pool: int = WarmPoolOpt,
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Evaluate a model: pass@k, resolved rate, mean reward, per-task table."""
    from termrl.eval.report import eval_summary

    setup_logging(False)
    try:
        make_agent = agent_factory("termrl", policy, model, action_format, max_turns, temperature, base_url,
                                    max_tokens)
        judge_obj = build_judge(judge, None, base_url)
    except (TermrlError, ValueError) as exc:
        fail(str(exc))
    _, results = run_all(tasks, make_agent, episode_config(None, True, judge_obj), k, jobs, out, "eval",
                         resume=resume, grace_s=grace, placement=Placement(host or [], capacity, warm_pool))
    summary = eval_summary(results, k)
    if as_json:
        print(json.dumps(summary))
        return
    table = Table(title=f"eval: pass@{k}")
    for col in ("task", "episodes", "resolved", f"pass@{k}", "mean reward"):
        table.add_column(col)
    for name, row in summary["tasks"].items():
        table.add_row(name, str(row["episodes"]), str(row["resolved"]), f"{row['pass_at_k']:.2f}",
                      f"{row['mean_reward']:.3f}")
    console.print(table)
    console.print(f"pass@{k} {summary['pass_at_k']:.3f}  resolved rate {summary['resolved_rate']:.3f}  "
                  f"mean reward {summary['mean_reward']:.3f}  errors {summary['errors']}  "
                  f"({summary['episodes']} episodes)")
