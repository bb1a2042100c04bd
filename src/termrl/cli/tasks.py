"""`termrl tasks ...`: list, show, validate, stats and generate tasks."""

from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from termrl.cli.app import tasks_app
from termrl.cli.common import (
    GraceOpt,
    ImageConfigOpt,
    JobsOpt,
    console,
    docker_provider,
    episode_config,
    err,
    fail,
    progress_bars,
    setup_logging,
)
from termrl.errors import TermrlError
from termrl.rollout.shutdown import STOP
from termrl.tasks import load_task, load_tasks


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
        fail(str(exc))
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
                                "folder (the single PATH given, or the dataset around a single task folder)."),
    only_changed: bool = typer.Option(False, "--changed", help="Only tasks not validated in their current form "
                                      "(per the dataset's validation.json, or a cached valid result)."),
    jobs: int = JobsOpt,
    image_config: Optional[Path] = ImageConfigOpt,
    grace: float = GraceOpt,
    verbose: bool = typer.Option(False, "--verbose", "-v"),
) -> None:
    """Build each task; run oracle, nop and solution/wrong_*.sh: valid = oracle 1.0, nop 0.0, wrong < 1, stable.

    SIGTERM/SIGINT stop it: the sandboxes in flight are removed, tasks whose validation was cut short get no
    result, the finished ones are kept (printed, cached, and with --report recorded), and it exits 143/130.
    """
    from termrl.eval.stats import changed_tasks, write_validation_report
    from termrl.eval.validation import ValidationInterrupted, invalid_load, validate_task
    from termrl.tasks.records import cached_result

    setup_logging(verbose)
    if (report_to or only_changed) and (len(paths) != 1 or not paths[0].is_dir()):
        fail("--report and --changed take exactly one dataset folder")
    dataset = paths[0] if paths else None
    if dataset is not None and (dataset / "task.toml").is_file():
        if only_changed:
            fail(f"--changed takes a dataset folder, and {dataset} is one task: pass {dataset.parent}")
        dataset = dataset.parent  # one task: its record lives in the dataset folder around it
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
    unfinished: list[str] = []
    if report.tasks:
        config = episode_config(image_config, True)
        with STOP.installed(grace):
            provider = docker_provider()
            with progress_bars() as progress, ThreadPoolExecutor(jobs) as pool:
                bar = progress.add_task("validating", total=len(report.tasks))
                futures = {pool.submit(validate_task, t, provider, config, repeats): t for t in report.tasks}
                for future in as_completed(futures):
                    try:
                        r = future.result()
                    except ValidationInterrupted:
                        unfinished.append(futures[future].name)
                        continue
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
                          "no solution" if not r.has_solution else "-" if r.oracle_reward is None
                          else f"{r.oracle_reward:g}",
                          "-" if r.nop_reward is None else f"{r.nop_reward:g}",
                          " ".join(f"{v:g}" for v in r.wrong_rewards.values()) or "-", str(r.n_tests),
                          ", ".join(r.nop_passed_tests) or "-", r.error or "")
        console.print(table)
    if report_to:
        console.print(f"wrote {write_validation_report(dataset, load_tasks([dataset]).tasks, results)}")
    if STOP.requested:  # one line: what stopped it, what is left, how to go on (valid results are cached)
        left = " ".join(sorted(unfinished)) or "-"
        print(f"termrl: stopped ({STOP.reason}); {len(unfinished)} task(s) not validated: {left}; run the command "
              "again for them (with --changed on a dataset folder, the tasks already found valid are skipped)",
              file=sys.stderr, flush=True)
        raise typer.Exit(STOP.exit_code)
    if not all(r.valid for r in results):
        raise typer.Exit(1)


@tasks_app.command("stats")
def tasks_stats(
    path: Path = typer.Argument(..., help="A dataset folder."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Counts by category and difficulty, tests per task, validation status, measured pass rates."""
    from termrl.eval.stats import dataset_stats
    from termrl.tasks.passrate import pass_rate_distribution

    report = load_tasks([path])
    stats = dataset_stats(report.tasks, path)
    pass_rates = pass_rate_distribution(report.tasks)  # {policy: {bucket: tasks}} from `tasks difficulty`
    if as_json:
        print(json.dumps({**stats.to_json(), "pass_rates": pass_rates,
                          "invalid_to_load": [str(e) for e in report.errors]}))
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
        for key, counts in pass_rates.items():
            table = Table(title=f"pass rate of {key} (termrl tasks difficulty)")
            table.add_column("pass rate")
            table.add_column("tasks", justify="right")
            for bucket_name, count in counts.items():
                table.add_row(bucket_name, str(count))
            console.print(table)
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
        fail(str(exc))
    console.print(str(path))
