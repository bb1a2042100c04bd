"""The typer application and its command groups; command modules register on these."""

from __future__ import annotations

import typer

app = typer.Typer(help="Train and evaluate long-horizon terminal agents.", no_args_is_help=True,
                  pretty_exceptions_enable=False)
tasks_app = typer.Typer(help="List, show and validate tasks.", no_args_is_help=True)
images_app = typer.Typer(help="Build the local base images.", no_args_is_help=True)
app.add_typer(tasks_app, name="tasks")
app.add_typer(images_app, name="images")
