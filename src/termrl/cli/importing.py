"""`termrl tasks import-csv`: the seed dataset's CSV format into Harbor task folders."""

from __future__ import annotations

from pathlib import Path

import typer

from termrl.cli.app import tasks_app
from termrl.cli.common import console, err, fail


@tasks_app.command("import-csv")
def tasks_import_csv(
    file: Path = typer.Argument(..., help="CSV with the Terminal-Bench-RL columns (task_id, difficulty, title, "
                                "use_case_category, prompt, category, tags, dockerfile, test_functions, test_weights, "
                                "additional_files, created_at, updated_at)."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder to write one task folder per row into."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace task folders that already exist."),
) -> None:
    """Write one Harbor-layout task per CSV row; a bad row is reported (row, column, fix), the others import."""
    from termrl.tasks.csv_import import import_csv

    try:
        report = import_csv(file, out, overwrite=overwrite)
    except ValueError as exc:
        fail(str(exc))
    console.print(f"imported {len(report.imported)} task(s) into {out}")
    if report.without_solution:
        console.print(f"{len(report.without_solution)} without a reference solution (marked reference_solution = false; "
                      f"`termrl tasks validate` checks their build and that doing nothing scores 0)")
    if report.skipped_existing:
        console.print(f"kept {len(report.skipped_existing)} existing folder(s) (--overwrite replaces them): "
                      + ", ".join(report.skipped_existing))
    for error in report.errors:
        err.print(f"bad row: {error}", markup=False, highlight=False)
    if report.errors:
        raise typer.Exit(1)
