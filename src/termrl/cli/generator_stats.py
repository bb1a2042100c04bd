"""`termrl tasks generator-stats`: how different a generator family's instances are."""

from __future__ import annotations

import json
from typing import Optional

import typer
from rich.table import Table

from termrl.cli.app import tasks_app
from termrl.cli.common import console, fail


@tasks_app.command("generator-stats")
def generator_stats(
    family: Optional[list[str]] = typer.Option(None, "--family", help="Only these families (default: all)."),
    seeds: int = typer.Option(100, "--seeds", min=1, help="Seeds per family and level (0..N-1)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON list."),
) -> None:
    """Distinct reference-solution programs per 100 seeds, per family and level (data blanked out of
    solve.sh: numbers, data strings, pool names; see termrl.tasks.generators.diversity)."""
    from termrl.tasks.generators.diversity import all_diversity

    try:
        rows = all_diversity(family or None, seeds)
    except ValueError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps([r.to_json() for r in rows]))
        return
    table = Table(title=f"distinct solution programs over {seeds} seeds")
    for column in ("family", "level", "programs", "per 100 seeds", "distinct instructions"):
        table.add_column(column, justify="left" if column == "family" else "right")
    for r in rows:
        table.add_row(r.family, str(r.difficulty), str(r.distinct_programs), f"{r.per_100:g}",
                      str(r.distinct_instructions))
    console.print(table)
