"""`termrl export-model`: a trained checkpoint as a Hugging Face model folder."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import typer

from termrl.cli.app import app
from termrl.cli.common import console, fail, setup_logging
from termrl.errors import TermrlError


@app.command("export-model")
def export_model_cmd(
    run: Path = typer.Argument(..., help="A training run folder, RUN/checkpoints/latest or RUN/checkpoints/step-N."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder to write (must not exist, or be empty)."),
) -> None:
    """Write config.json, model.safetensors, the tokenizer and its chat template (LoRA merged): a folder that
    transformers loads and llama.cpp's convert_hf_to_gguf.py converts."""
    from termrl.train.export import export_model

    setup_logging(False)
    try:
        folder = export_model(run, out)
    except (TermrlError, FileExistsError) as exc:
        fail(str(exc))
    console.print(f"wrote {folder}: " + ", ".join(sorted(p.name for p in folder.iterdir())))
    # Every file is written and closed. Skip the interpreter's teardown: a native worker thread left by
    # the model-loading stack sometimes aborts it ("terminate called without an active exception",
    # exit -6) after the export already succeeded.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
