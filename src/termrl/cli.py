"""`termrl ...` — the command line."""

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
from rich.table import Table

from termrl.errors import TermrlError
from termrl.images.build import ImageConfig
from termrl.rollout.episode import EpisodeConfig, EpisodeLog, run_episode
from termrl.tasks import load_task, load_tasks
from termrl.types import EpisodeResult

app = typer.Typer(help="Train and evaluate long-horizon terminal agents.", no_args_is_help=True,
                  pretty_exceptions_enable=False)
tasks_app = typer.Typer(help="List, show and validate tasks.", no_args_is_help=True)
images_app = typer.Typer(help="Build the local base images.", no_args_is_help=True)
app.add_typer(tasks_app, name="tasks")
app.add_typer(images_app, name="images")

console = Console()
err = Console(stderr=True)


def _fail(message: str) -> None:
    err.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(2)


def _setup_logging(verbose: bool) -> None:
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(message)s",
                        stream=sys.stderr)


def _provider():
    from termrl.sandbox.docker import DockerProvider

    try:
        return DockerProvider()
    except TermrlError as exc:
        _fail(str(exc))


def _episode_config(image_config: Optional[Path], verifier_network: bool) -> EpisodeConfig:
    try:
        return EpisodeConfig(verifier_network=verifier_network, image_config=ImageConfig.load(image_config))
    except TermrlError as exc:
        _fail(str(exc))


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=False)


ImageConfigOpt = typer.Option(None, "--image-config", help="YAML file with extra FROM aliases (aliases: {glob: image}).")
JobsOpt = typer.Option(2, "--jobs", "-j", min=1, help="Episodes run at once.")


PolicyOpt = typer.Option("hf", "--policy", "-p", help="Model backend for --agent termrl: hf | openai | scripted")


def _agent_factory(agent: str, policy: str, model: Optional[str], action_format: str, max_turns: int,
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
        _fail(f"unknown --format {action_format!r}: use one of {', '.join(FORMATS)}")
    kwargs = {k: v for k, v in (("model", model), ("base_url", base_url)) if v}
    shared = get_policy(policy, **kwargs)
    config = AgentConfig(action_format=action_format, max_turns=max_turns, temperature=temperature,
                         max_tokens_per_turn=max_tokens)
    return lambda: TermAgent(shared, config)


def _judge(name: str, policy_for_llm: Optional[str], base_url: Optional[str]):
    from termrl.rewards.judges import get_judge

    if name == "llm":
        from termrl.policies import get_policy

        kwargs = {"base_url": base_url} if base_url else {}
        return get_judge("llm", policy=get_policy(policy_for_llm or "openai", **kwargs))
    return get_judge(name)


def _run_all(paths: list[Path], make_agent, judge_obj, config: EpisodeConfig, repeats: int, jobs: int, out: Path,
             label: str):
    """Load tasks (bad ones reported, the rest go on), run every episode, append each row as it finishes."""
    report = load_tasks(paths)
    for error in report.errors:
        err.print(f"[yellow]skipped task:[/] {error}")
    if not report.tasks:
        _fail("no loadable task among the paths given")
    config.judge = judge_obj
    provider = _provider()
    log = EpisodeLog(out / "episodes.jsonl")
    results: list[EpisodeResult] = []
    work = [t for t in report.tasks for _ in range(repeats)]
    with _progress() as progress, ThreadPoolExecutor(jobs) as pool:
        bar = progress.add_task(f"{label} episodes", total=len(work))
        futures = [pool.submit(run_episode, t, make_agent(), provider, config) for t in work]
        for future in as_completed(futures):
            result = future.result()
            log.append(result.to_json())
            results.append(result)
            progress.advance(bar)
    return report, results


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
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Run an agent on tasks; write OUT/episodes.jsonl and print a summary table."""
    _setup_logging(verbose)
    try:
        make_agent = _agent_factory(agent, policy, model, action_format, max_turns, temperature, base_url,
                                    max_tokens)
        judge_obj = _judge(judge, None, base_url) if agent == "termrl" else None
    except (TermrlError, ValueError) as exc:
        _fail(str(exc))
    report, results = _run_all(tasks, make_agent, judge_obj, _episode_config(image_config, verifier_network),
                               repeats, jobs, out, agent)
    _print_episodes(results)
    console.print(f"episodes written to {out / 'episodes.jsonl'}")
    if report.errors:
        raise typer.Exit(1)


def _print_episodes(results: list[EpisodeResult]) -> None:
    table = Table(title="episodes")
    for col in ("task", "agent", "reward", "test", "judge", "resolved", "tests passed", "turns", "ended", "error",
                "seconds"):
        table.add_column(col)
    for r in sorted(results, key=lambda r: r.task):
        passed = f"{sum(r.tests.values())}/{len(r.tests)}" if r.tests else "-"
        ended = r.extra.get("end_reason") or ("truncated" if r.truncated else ("terminated" if r.terminated else "-"))
        error = f"{r.error.boundary}: {r.error.message[:60]}" if r.error else ""
        if r.extra.get("judge_error"):
            error += f" judge: {r.extra['judge_error'][:40]}"
        judge = r.extra.get("judge_score")
        test = r.extra.get("test_score")
        table.add_row(r.task, r.agent, f"{r.reward:.2f}", "-" if test is None else f"{test:.2f}",
                      "-" if judge is None else f"{judge:.2f}", "yes" if r.resolved else "no", passed,
                      str(r.extra.get("n_turns", "-")), ended, error, f"{r.duration_s:.1f}")
    console.print(table)
    n = len(results)
    if n:
        console.print(f"resolved {sum(r.resolved for r in results)}/{n}, "
                      f"mean reward {sum(r.reward for r in results) / n:.3f}, "
                      f"errors {sum(r.error is not None for r in results)}")


@app.command()
def show(episode: str = typer.Argument(..., help="DIR/episodes.jsonl[:N] (N-th row, from 1; default the last) "
                                       "or a JSON file with one episode row.")) -> None:
    """Render one episode's trajectory readably."""
    from termrl.rollout.render import load_row, render_episode

    try:
        row = load_row(episode)
    except (OSError, ValueError) as exc:
        _fail(str(exc))
    render_episode(row, console)


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
            _fail(str(exc))
    raise typer.Exit(judge_eval_command(path, judge, as_json, policy=policy))


def _overrides(sets: Optional[list[str]]) -> dict:
    import yaml

    out = {}
    for item in sets or []:
        key, sep, value = item.partition("=")
        if not sep:
            _fail(f"--set {item!r}: write KEY=VALUE, e.g. --set grpo.group_size=4")
        out[key.strip()] = yaml.safe_load(value)
    return out


@app.command()
def train(
    config: Optional[Path] = typer.Option(Path("configs/cpu-smollm2.yaml"), "--config", "-c",
                                          help="YAML config (configs/ has presets)."),
    sets: Optional[list[str]] = typer.Option(None, "--set", help="Override a setting: KEY=VALUE (dotted keys)."),
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Train a policy with GRPO on rollouts in Docker. Resumable: rerun the same command."""
    from termrl.train.config import load_config
    from termrl.train.trainer import Trainer

    _setup_logging(verbose)
    try:
        cfg = load_config(config, _overrides(sets))
    except ValueError as exc:
        _fail(str(exc))
    trainer = Trainer(cfg)
    if trainer.step:
        console.print(f"resuming at step {trainer.step}")
    with _progress() as progress:
        bar = progress.add_task("training steps", total=cfg.steps, completed=trainer.step)

        def report(step: int, m: dict) -> None:
            progress.update(bar, completed=step)
            progress.console.print(
                f"step {step}: reward {m.get('train/reward_mean', 0):.3f} resolved {m.get('train/resolved_rate', 0):.2f} "
                f"loss {m.get('loss', 0):.4f} clip {m.get('clip_fraction', 0):.3f} "
                f"entropy {m.get('entropy', 0):.2f} tokens/s {m.get('tokens_per_s', 0):.0f}")

        try:
            trainer.train(progress=report)
        finally:
            trainer.close()
    console.print(f"metrics: {Path(cfg.out_dir) / 'metrics.jsonl'}; tensorboard --logdir {Path(cfg.out_dir) / 'tensorboard'}")


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
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Evaluate a model: pass@k, resolved rate, mean reward, per-task table."""
    from termrl.eval.report import eval_summary

    _setup_logging(False)
    try:
        make_agent = _agent_factory("termrl", policy, model, action_format, max_turns, temperature, base_url,
                                    max_tokens)
        judge_obj = _judge(judge, None, base_url)
    except (TermrlError, ValueError) as exc:
        _fail(str(exc))
    _, results = _run_all(tasks, make_agent, judge_obj, _episode_config(None, True), k, jobs, out, "eval")
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


@tasks_app.command("list")
def tasks_list(paths: list[Path] = typer.Argument(..., help="Task folders, or folders of tasks.")) -> None:
    """List tasks with their format, difficulty and category."""
    report = load_tasks(paths)
    table = Table(title=f"{len(report.tasks)} tasks")
    for col in ("task", "format", "difficulty", "category", "agent timeout", "tests timeout"):
        table.add_column(col)
    for t in report.tasks:
        table.add_row(t.name, t.format, t.metadata.difficulty, t.metadata.category,
                      f"{t.agent_timeout_sec:g}s", f"{t.verifier_timeout_sec:g}s")
    console.print(table)
    for error in report.errors:
        err.print(f"[red]invalid:[/] {error}")
    if report.errors:
        raise typer.Exit(1)


@tasks_app.command("show")
def tasks_show(path: Path = typer.Argument(..., help="A task folder.")) -> None:
    """Show one task: its settings and instruction."""
    try:
        t = load_task(path)
    except TermrlError as exc:
        _fail(str(exc))
    env = t.environment
    table = Table(show_header=False, title=t.name)
    rows = [
        ("format", t.format), ("path", str(t.path)), ("difficulty", t.metadata.difficulty),
        ("category", t.metadata.category), ("tags", ", ".join(t.metadata.tags)),
        ("image", str(env.dockerfile or env.docker_image)), ("limits", f"{env.cpus:g} cpu, {env.memory_mb} MB, "
                                                                      f"{env.pids_limit} pids"),
        ("internet (agent)", str(env.allow_internet)), ("agent timeout", f"{t.agent_timeout_sec:g}s"),
        ("tests timeout", f"{t.verifier_timeout_sec:g}s"), ("tests", ", ".join(sorted(
            p.name for p in t.tests_dir.iterdir())) if t.tests_dir.is_dir() else "-"),
        ("solution", "yes" if t.has_solution else "no"),
    ]
    for k, v in rows:
        table.add_row(k, v)
    console.print(table)
    console.rule("instruction")
    console.print(t.instruction, markup=False)


@tasks_app.command("validate")
def tasks_validate(
    paths: list[Path] = typer.Argument(..., help="Task folders, or folders of tasks."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per task per line."),
    repeats: int = typer.Option(1, "--repeats", min=1, help="Run everything N times; results must agree."),
    report_to: bool = typer.Option(False, "--report", help="Update validation.json and VALIDATION.md in the dataset "
                                "folder (the single PATH given)."),
    only_changed: bool = typer.Option(False, "--changed", help="Only tasks not validated in their current form "
                                      "(per the dataset's validation.json, or a cached valid result)."),
    jobs: int = JobsOpt,
    image_config: Optional[Path] = ImageConfigOpt,
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Build each task; run oracle, nop and solution/wrong_*.sh: valid = oracle 1.0, nop 0.0, wrong < 1, stable."""
    from termrl.tasks.stats import changed_tasks, write_validation_report
    from termrl.tasks.validate import cached_result, invalid_load, validate_task

    _setup_logging(verbose)
    if (report_to or only_changed) and (len(paths) != 1 or not paths[0].is_dir()):
        _fail("--report and --changed take exactly one dataset folder")
    report = load_tasks(paths)
    if only_changed:
        report = type(report)(changed_tasks(report.tasks, paths[0]), report.errors)
    results = [invalid_load(e) for e in report.errors]
    if only_changed:
        # A task already validated in its current form (same folder digest, as many repeats) needs no rerun.
        cached = {t.name: cached_result(t, repeats) for t in report.tasks}
        results += [r for r in cached.values() if r is not None]
        report = type(report)([t for t in report.tasks if cached[t.name] is None], report.errors)
    for r in results:
        if as_json:
            print(json.dumps(r.to_json()), flush=True)
    if report.tasks:
        config = _episode_config(image_config, True)
        provider = _provider()
        with _progress() as progress, ThreadPoolExecutor(jobs) as pool:
            bar = progress.add_task("validating", total=len(report.tasks))
            futures = [pool.submit(validate_task, t, provider, config, repeats) for t in report.tasks]
            for future in as_completed(futures):
                r = future.result()
                results.append(r)
                if as_json:
                    print(json.dumps(r.to_json()), flush=True)
                progress.advance(bar)
    if not as_json:
        table = Table(title="validation")
        for col in ("task", "valid", "oracle", "nop", "wrong", "tests", "nop passes", "problem"):
            table.add_column(col)
        for r in sorted(results, key=lambda r: r.task):
            table.add_row(r.task, "[green]yes[/]" if r.valid else "[red]no[/]",
                          "-" if r.oracle_reward is None else f"{r.oracle_reward:g}",
                          "-" if r.nop_reward is None else f"{r.nop_reward:g}",
                          " ".join(f"{v:g}" for v in r.wrong_rewards.values()) or "-", str(r.n_tests),
                          ", ".join(r.nop_passed_tests) or "-", r.error or "")
        console.print(table)
    if report_to:
        console.print(f"wrote {write_validation_report(paths[0], load_tasks(paths).tasks, results)}")
    if not all(r.valid for r in results):
        raise typer.Exit(1)


@tasks_app.command("stats")
def tasks_stats(
    path: Path = typer.Argument(..., help="A dataset folder."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Counts by category and difficulty, tests per task, validation status."""
    from termrl.tasks.stats import dataset_stats

    report = load_tasks([path])
    stats = dataset_stats(report.tasks, path)
    if as_json:
        print(json.dumps({**stats.to_json(), "invalid_to_load": [str(e) for e in report.errors]}))
    else:
        n = max(stats.n_tasks, 1)
        for title, counts in (("category", stats.by_category), ("difficulty", stats.by_difficulty)):
            table = Table(title=f"{stats.n_tasks} tasks by {title}")
            table.add_column(title)
            table.add_column("tasks", justify="right")
            table.add_column("share", justify="right")
            for key, count in counts.items():
                table.add_row(key, str(count), f"{100 * count / n:.0f}%")
            console.print(table)
        console.print(f"tests per task: {stats.tests_per_task} (min {stats.min_tests}); "
                      f"with a wrong solution: {stats.with_wrong_solution}/{stats.n_tasks}; "
                      f"validated in current form: {stats.validated}/{stats.n_tasks}")
        for error in report.errors:
            err.print(f"[red]invalid:[/] {error}")
    if report.errors:
        raise typer.Exit(1)


@tasks_app.command("generate")
def tasks_generate(
    family: str = typer.Argument(..., help="Generator family; an unknown name lists them."),
    seed: int = typer.Option(0, "--seed", help="Instances differ by seed."),
    difficulty: int = typer.Option(1, "--difficulty", min=1, max=3),
    out: Path = typer.Option(Path("generated"), "--out", help="Folder to write the task folder into."),
) -> None:
    """Write one procedurally generated task (a full Harbor folder with solution and tests)."""
    from termrl.tasks.generators import generate

    try:
        path = generate(family, seed, difficulty, out)
    except (ValueError, FileExistsError) as exc:
        _fail(str(exc))
    console.print(str(path))


@images_app.command("build")
def images_build(
    suite: Optional[list[str]] = typer.Option(None, "--suite", help="bookworm | trixie (default: all)"),
    force: bool = typer.Option(False, help="Rebuild even if up to date."),
) -> None:
    """Build the local base images from Debian packages (mmdebstrap + docker import)."""
    from termrl.images.base import build_base_images

    _setup_logging(True)
    provider = _provider()
    try:
        for tag in build_base_images(provider.client, suite, force=force):
            console.print(f"[green]ready[/] {tag}")
    except TermrlError as exc:
        _fail(str(exc))


@app.command()
def clean(everything: bool = typer.Option(False, "--all", help="Also remove containers of live runs.")) -> None:
    """Remove termrl containers left behind by crashed runs."""
    from termrl.sandbox.docker import clean_orphans

    removed = clean_orphans(_provider().client, everything=everything)
    console.print(f"removed {len(removed)} container(s)" + (f": {', '.join(removed)}" if removed else ""))


def main() -> None:  # pragma: no cover
    app()
