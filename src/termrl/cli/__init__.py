"""`termrl ...` — the command line: one module per command group, each registering on `app`.

To add a command group, write `cli/<group>.py` with its `@app.command()` functions and import it below.
"""

# importing registers the commands
from termrl.cli import (difficulty, export, generator_stats, images, importing, report, run, tasks,  # noqa: F401
                        train)
from termrl.cli.app import app

__all__ = ["app", "main"]


def main() -> None:  # pragma: no cover
    app()
