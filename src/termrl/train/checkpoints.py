"""Trainer checkpoints: what a resumed run needs to go on exactly where it stopped.

Layout under the run folder::

    checkpoints/
      step-000010/        one folder per saved step (the newest ``keep_checkpoints`` are kept)
        model.pt          the trainable weights: the full state dict, or only the LoRA adapters
        optimizer.pt      the optimizer's state dict
        rng.pt            Python's and torch's random state
        state.json        {"step", "store_rows" (rollouts.jsonl rows at save time), "curriculum"}
      latest              a text file naming the newest step folder

A checkpoint is written to ``step-N.tmp`` and renamed into place, so a crash mid-save leaves the
previous one intact; ``latest`` is rewritten only after the rename.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import torch


def trainable_state(model: torch.nn.Module, lora: bool) -> dict[str, torch.Tensor]:
    """What ``model.pt`` holds: the whole state dict, or with LoRA only the parameters that train."""
    return {k: v for k, v in model.state_dict().items()} if not lora else {
        n: p.detach() for n, p in model.named_parameters() if p.requires_grad}


def save_checkpoint(out: Path, step: int, model: torch.nn.Module, optimizer: torch.optim.Optimizer, *,
                    lora: bool, state: dict[str, Any], keep: int) -> Path:
    """Write ``out/checkpoints/step-<step>`` (``state`` is ``state.json``'s content), point ``latest``
    at it and remove all but the newest ``keep`` step folders. Returns the checkpoint folder."""
    folder = out / "checkpoints"
    ckpt = folder / f"step-{step:06d}"
    tmp = ckpt.with_suffix(".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    torch.save(trainable_state(model, lora), tmp / "model.pt")
    torch.save(optimizer.state_dict(), tmp / "optimizer.pt")
    torch.save({"python": random.getstate(), "torch": torch.get_rng_state()}, tmp / "rng.pt")
    (tmp / "state.json").write_text(json.dumps(state))
    shutil.rmtree(ckpt, ignore_errors=True)
    tmp.rename(ckpt)  # a crash mid-save leaves the previous checkpoint intact
    (folder / "latest").write_text(ckpt.name)
    kept = sorted(p for p in folder.glob("step-*") if p.is_dir())
    for old in kept[:-keep]:
        shutil.rmtree(old, ignore_errors=True)
    return ckpt


def latest_checkpoint(out: Path) -> Path | None:
    """The folder ``out/checkpoints/latest`` names, or None when the run has not saved one."""
    latest = out / "checkpoints" / "latest"
    if not latest.is_file():
        return None
    return out / "checkpoints" / latest.read_text().strip()


def load_checkpoint(ckpt: Path, model: torch.nn.Module, optimizer: torch.optim.Optimizer, *,
                    lora: bool) -> dict[str, Any]:
    """Load the weights, the optimizer and the random state of ``ckpt`` in place; returns its ``state.json``."""
    state = torch.load(ckpt / "model.pt", weights_only=True)
    if lora:
        params = dict(model.named_parameters())
        with torch.no_grad():
            for name, value in state.items():
                params[name].copy_(value)
    else:
        model.load_state_dict(state)
    optimizer.load_state_dict(torch.load(ckpt / "optimizer.pt", weights_only=True))
    rng = torch.load(ckpt / "rng.pt", weights_only=False)
    random.setstate(rng["python"])
    torch.set_rng_state(rng["torch"])
    return json.loads((ckpt / "state.json").read_text())
