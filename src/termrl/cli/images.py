"""`termrl images build` and `termrl clean`: base images and leftover containers."""

from __future__ import annotations

from typing import Optional

import typer

from termrl.cli.app import app, images_app
from termrl.cli.common import console, docker_provider, fail, setup_logging
from termrl.errors import TermrlError


@images_app.command("build")
def images_build(
    suite: Optional[list[str]] = typer.Option(
        None, "--suite", help="bookworm | trixie | bookworm-sci | py3.13-bookworm | py3.13-trixie | py<X.Y>-<suite> "
                              "(default: all but the extra py<X.Y> ones)"),
    force: bool = typer.Option(False, help="Rebuild even if up to date."),
) -> None:
    """Build the local base images from Debian packages (mmdebstrap + docker import) and the
    termrl/python:<X.Y>-<suite> stand-ins (CPython compiled once from source, cached)."""
    from termrl.images.base import build_base_images

    setup_logging(True)
    provider = docker_provider()
    try:
        for tag in build_base_images(provider.client, suite, force=force):
            console.print(f"[green]ready[/] {tag}")
    except TermrlError as exc:
        fail(str(exc))


@app.command()
def clean(everything: bool = typer.Option(False, "--all", help="Also remove containers of live runs.")) -> None:
    """Remove termrl containers left behind by crashed runs."""
    from termrl.sandbox.docker import clean_orphans

    removed = clean_orphans(docker_provider().client, everything=everything)
    console.print(f"removed {len(removed)} container(s)" + (f": {', '.join(removed)}" if removed else ""))
