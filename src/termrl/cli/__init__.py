"""`termrl ...` — the command line: one module per command group, each registering on `app`.

To add a command group, write `cli/<group>.py` with its `@app.command()` functions and import it below.
"""

from termrl.cli import images, importing, report, run, tasks, train  # noqa: F401  (importing registers the commands)
from termrl.cli.app import app

__all__ = ["app", "main"]


def main() -> None:  # pragma: no cover
    app()
