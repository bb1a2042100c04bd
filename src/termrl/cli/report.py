"""`termrl report` and `termrl export`: look at runs in a browser, share them as a dataset."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Optional

import typer

from termrl.cli.app import app
from termrl.cli.common import console, fail


def _load_runs(paths: list[Path]):
    from termrl.eval.runs import load_run

    runs, seen = [], set()
    for path in paths:
        try:
            run = load_run(path)
        except ValueError as exc:
            fail(str(exc))
        name, n = run.name, 2
        while name in seen:  # two folders with one name: tell them apart
            name, n = f"{run.name} ({n})", n + 1
        seen.add(name)
        runs.append(run if name == run.name else dataclasses.replace(run, name=name))
    return runs


@app.command()
def report(
    runs: list[Path] = typer.Argument(..., help="Run folders (the --out of termrl run/eval/train); several = side "
                                      "by side, the first is the baseline of the differences."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Report folder (default: RUN/report for one run, "
                                       "runs/report for several)."),
    open_it: bool = typer.Option(False, "--open", help="Open the report in the default browser."),
) -> None:
    """Write a static HTML report (works from file://, no server, no network): overview, training curves,
    per-task table with differences between runs, and a turn-by-turn trajectory viewer."""
    from termrl.eval.html_report import write_report

    loaded = _load_runs(runs)
    out = out or (runs[0] / "report" if len(runs) == 1 else Path("runs/report"))
    index = write_report(loaded, out)
    n = sum(len(r.rows()) for r in loaded)
    console.print(f"report of {len(loaded)} run(s), {n} episodes: {index}")
    console.print(f"open file://{index.resolve()}")
    if open_it:
        import webbrowser

        webbrowser.open(index.resolve().as_uri())


@app.command()
def export(
    run: Path = typer.Argument(..., help="A run folder (the --out of termrl run/eval/train)."),
    to: str = typer.Option("hf", "--to", help="Export format: hf (a Hugging Face datasets dataset)."),
    out: Path = typer.Argument(..., help="Folder to save the dataset into (datasets.load_from_disk reads it)."),
    resolved_only: bool = typer.Option(False, "--resolved-only", help="Only resolved episodes, as an SFT set in chat "
                                       "format (messages with role and content)."),
    source: Optional[list[str]] = typer.Option(None, "--source", help="episodes | rollouts | eval (repeatable; "
                                               "default: all the run has)."),
) -> None:
    """Export a run's episodes: messages, reward parts, tests, token ids and masks, metadata."""
    from termrl.eval.export import export_hf
    from termrl.eval.runs import SOURCES

    if to != "hf":
        fail(f"--to {to!r}: the only export format is hf")
    for s in source or ():
        if s not in SOURCES:
            fail(f"--source {s!r}: use one of {', '.join(SOURCES)}")
    (loaded,) = _load_runs([run])
    try:
        path, n = export_hf(loaded, out, resolved_only=resolved_only, sources=tuple(source or SOURCES))
    except ValueError as exc:
        fail(str(exc))
    kind = "SFT examples" if resolved_only else "episodes"
    console.print(f"exported {n} {kind} to {path} (datasets.load_from_disk({str(path)!r}))")
