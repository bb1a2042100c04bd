"""Shared pieces of the command line: consoles, the error exit, option defaults, agent/judge factories."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from termrl.errors import TermrlError
from termrl.images.build import ImageConfig
from termrl.rollout.engine import RolloutEngine, TrajectoryStore
from termrl.rollout.episode import EpisodeConfig
from termrl.rollout.shutdown import DEFAULT_GRACE_S, STOP, command_line
from termrl.tasks import LoadReport, load_tasks
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


def episode_config(image_config: Optional[Path], verifier_network: bool, judge=None) -> EpisodeConfig:
    try:
        return EpisodeConfig(verifier_network=verifier_network, image_config=ImageConfig.load(image_config),
                             judge=judge)
    except TermrlError as exc:
        fail(str(exc))


def progress_bars() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=False)


ImageConfigOpt = typer.Option(None, "--image-config", help="YAML file with extra FROM aliases (aliases: {glob: image}).")
JobsOpt = typer.Option(2, "--jobs", "-j", min=1, help="Episodes run at once.")
GraceOpt = typer.Option(DEFAULT_GRACE_S, "--grace", min=0.0,
                        help="Seconds a SIGTERM/SIGINT has to record in-flight episodes and remove sandboxes.")
ResumeOpt = typer.Option(False, "--resume", help="Complete the last run into OUT: only episodes without a "
                         "finished row run (interrupted ones again).")


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


HostOpt = typer.Option(None, "--host", help="A Docker engine to run sandboxes on (unix://, tcp:// with TLS from "
                       "DOCKER_TLS_VERIFY/DOCKER_CERT_PATH, ssh://); repeat for several: each sandbox then "
                       "starts on the least-loaded live one. Default: the local engine (DOCKER_HOST).")
CapacityOpt = typer.Option(16, "--capacity", min=1, help="Most sandboxes open at once on each --host (two or more).")
WarmPoolOpt = typer.Option(2, "--warm-pool", min=0, help="Sandboxes started ahead of the episodes that will use "
                           "them, per engine (0 = start each when its episode begins).")


@dataclass
class Placement:
    """Where a command's sandboxes run: ``--host`` (repeatable), ``--capacity``, ``--warm-pool``."""

    hosts: list[str] = field(default_factory=list)
    capacity: int = 16
    warm_pool: int = 2

    def provider(self):
        from termrl.sandbox.hosts import sandbox_provider

        try:
            return sandbox_provider(self.hosts, capacity=self.capacity, pool_size=self.warm_pool)
        except TermrlError as exc:
            fail(str(exc))


def run_all(paths: list[Path], make_agent, config: EpisodeConfig, repeats: int, jobs: int, out: Path,
            label: str, *, resume: bool = False, grace_s: float = DEFAULT_GRACE_S,
            placement: Placement | None = None) -> tuple[LoadReport, list[EpisodeResult]]:
    """Load tasks (bad ones reported, the rest go on) and run ``repeats`` episodes of each through the
    rollout engine, each row appended to OUT/episodes.jsonl as it finishes.

    A rerun into the same OUT appends new episodes (under the next step number); with ``resume`` it
    completes the last step instead: only the episodes without a finished row run (interrupted ones again).
    SIGTERM/SIGINT (or a fatal fault) stop it: no new episode starts, the ones in flight are recorded as
    interrupted, the sandboxes are removed, and the command exits 143/130 (3 for a fault) with one line
    saying how to resume.
    """
    report = load_tasks(paths)
    for error in report.errors:
        err.print(f"[yellow]skipped task:[/] {error}")
    if not report.tasks:
        fail("no loadable task among the paths given")
    tasks = list({t.name: t for t in report.tasks}.values())  # a task named twice runs its repeats once
    store = TrajectoryStore(out / "episodes.jsonl")
    step = max(0, store.next_step() - 1) if resume else store.next_step()
    if resume:
        done = sum(1 for k in store.finished() if k.startswith(f"{step}:"))
        err.print(f"resuming: {done} episode(s) already in {store.path}")
    with STOP.installed(grace_s):
        provider = (placement or Placement()).provider()
        with progress_bars() as progress:
            bar = progress.add_task(f"{label} episodes", total=len(tasks) * repeats)
            engine = RolloutEngine(provider, make_agent, store=store, episode_config=config,
                                   max_concurrency=jobs, on_episode=lambda _: progress.advance(bar))
            rollout = engine.run(tasks, repeats, step=step)
        provider.close()
        if STOP.requested:  # one line: what stopped the run and how to go on
            print(STOP.resume_line(command_line("--resume")), file=sys.stderr, flush=True)
            raise typer.Exit(STOP.exit_code)
    return report, [r for group in rollout.groups.values() for r in group]


def parse_overrides(sets: Optional[list[str]]) -> dict:
    import yaml

    out = {}
    for item in sets or []:
        key, sep, value = item.partition("=")
        if not sep:
            fail(f"--set {item!r}: write KEY=VALUE, e.g. --set grpo.group_size=4")
        out[key.strip()] = yaml.safe_load(value)
    return out
