"""Shared pieces of the command line: consoles, the error exit, option defaults, agent/judge factories."""

from __future__ import annotations

import json
import logging
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from termrl.errors import StorageError, TermrlError
from termrl.images.build import ImageConfig
from termrl.rollout.episode import EpisodeConfig, EpisodeLog, run_episode
from termrl.rollout.shutdown import DEFAULT_GRACE_S, STOP, command_line
from termrl.tasks import load_tasks
from termrl.types import EpisodeResult

console = Console()
err = Console(stderr=True)


def fail(message: str) -> None:
    err.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(2)


def setup_logging(verbose: bool) -> None:
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(message)s",
                        stream=sys.stderr)


def docker_provider():
    from termrl.sandbox.docker import DockerProvider

    try:
        return DockerProvider()
    except TermrlError as exc:
        fail(str(exc))


def episode_config(image_config: Optional[Path], verifier_network: bool) -> EpisodeConfig:
    try:
        return EpisodeConfig(verifier_network=verifier_network, image_config=ImageConfig.load(image_config))
    except TermrlError as exc:
        fail(str(exc))


def progress_bars() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=False)


ImageConfigOpt = typer.Option(None, "--image-config", help="YAML file with extra FROM aliases (aliases: {glob: image}).")
JobsOpt = typer.Option(2, "--jobs", "-j", min=1, help="Episodes run at once.")
GraceOpt = typer.Option(DEFAULT_GRACE_S, "--grace", min=0.0,
                        help="Seconds a SIGTERM/SIGINT has to record in-flight episodes and remove sandboxes.")
ResumeOpt = typer.Option(False, "--resume", help="Run only the episodes OUT/episodes.jsonl lacks (interrupted "
                         "ones run again).")


PolicyOpt = typer.Option("hf", "--policy", "-p", help="Model backend for --agent termrl: hf | openai | scripted")


def agent_factory(agent: str, policy: str, model: Optional[str], action_format: str, max_turns: int,
                   temperature: float, base_url: Optional[str], max_tokens: int = 512):
    """A function making one agent per episode (agents keep per-episode state; the policy is shared)."""
    from termrl.agent.reference import get_agent

    if agent != "termrl":
        get_agent(agent)  # fail early on an unknown name
        return lambda: get_agent(agent)
    from termrl.agent.formats import FORMATS
    from termrl.agent.loop import AgentConfig, TermAgent
    from termrl.policies import get_policy

    if action_format not in FORMATS:
        fail(f"unknown --format {action_format!r}: use one of {', '.join(FORMATS)}")
    kwargs = {k: v for k, v in (("model", model), ("base_url", base_url)) if v}
    shared = get_policy(policy, **kwargs)
    config = AgentConfig(action_format=action_format, max_turns=max_turns, temperature=temperature,
                         max_tokens_per_turn=max_tokens)
    return lambda: TermAgent(shared, config)


def build_judge(name: str, policy_for_llm: Optional[str], base_url: Optional[str]):
    from termrl.rewards.judges import get_judge

    if name == "llm":
        from termrl.policies import get_policy

        kwargs = {"base_url": base_url} if base_url else {}
        return get_judge("llm", policy=get_policy(policy_for_llm or "openai", **kwargs))
    return get_judge(name)


def run_all(paths: list[Path], make_agent, judge_obj, config: EpisodeConfig, repeats: int, jobs: int, out: Path,
            label: str, *, resume: bool = False, grace_s: float = DEFAULT_GRACE_S, resumable: bool = True):
    """Load tasks (bad ones reported, the rest go on), run every episode, append each row as it finishes.

    SIGTERM/SIGINT (or a fatal fault) stop it: no new episode starts, the ones in flight are recorded
    as interrupted, the sandboxes are removed, and the command exits non-zero saying how to resume
    (``resume``: run only the episodes ``out/episodes.jsonl`` does not hold finished).
    """
    report = load_tasks(paths)
    for error in report.errors:
        err.print(f"[yellow]skipped task:[/] {error}")
    if not report.tasks:
        fail("no loadable task among the paths given")
    config.judge = judge_obj
    log = EpisodeLog(out / "episodes.jsonl")
    done = finished_counts(log.path) if resume else {}
    work = [t for t in report.tasks for _ in range(max(0, repeats - done.get(t.name, 0)))]
    if resume:
        err.print(f"resuming: {sum(min(repeats, done.get(t.name, 0)) for t in report.tasks)} episode(s) already "
                  f"in {log.path}, {len(work)} to run")
    results: list[EpisodeResult] = []

    def one(task) -> EpisodeResult | None:
        if STOP.requested:
            return None  # a stopped run draws no new episode
        return run_episode(task, make_agent(), provider, config)

    with STOP.installed(grace_s):
        provider = docker_provider()
        with progress_bars() as progress, ThreadPoolExecutor(jobs) as pool:
            bar = progress.add_task(f"{label} episodes", total=len(work))
            futures = [pool.submit(one, t) for t in work]
            for future in as_completed(futures):
                result = future.result()
                if result is None:
                    continue
                try:
                    log.append(result.to_json())
                except StorageError as exc:
                    STOP.request(str(exc), fatal=True)
                    continue
                results.append(result)
                progress.advance(bar)
        if hasattr(provider, "close"):
            provider.close()
        if STOP.requested:
            print(STOP.resume_line(command_line("--resume") if resumable else f"{command_line()} (it runs all again)"),
                  file=sys.stderr, flush=True)
            raise typer.Exit(STOP.exit_code)
    return report, results


def finished_counts(path: Path) -> dict[str, int]:
    """Episodes per task that ``path`` (an episodes.jsonl) holds finished: interrupted ones run again."""
    counts: dict[str, int] = {}
    if not path.is_file():
        return counts
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and "task" in row and (row.get("error") or {}).get("boundary") != "interrupted":
            counts[row["task"]] = counts.get(row["task"], 0) + 1
    return counts


def parse_overrides(sets: Optional[list[str]]) -> dict:
    import yaml

    out = {}
    for item in sets or []:
        key, sep, value = item.partition("=")
        if not sep:
            fail(f"--set {item!r}: write KEY=VALUE, e.g. --set grpo.group_size=4")
        out[key.strip()] = yaml.safe_load(value)
    return out
