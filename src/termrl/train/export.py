"""A training checkpoint as a Hugging Face model folder.

A checkpoint (``RUN/checkpoints/step-N``) holds the trained weights as a state dict (every weight,
or only the LoRA adapters), not a loadable model: the base model is named in ``RUN/config.json``.
:func:`export_model` loads the base model, puts the trained weights in (LoRA adapters merged),
and writes a standard folder -- ``config.json``, ``model.safetensors``, ``generation_config.json``,
the tokenizer files and its chat template -- that ``transformers`` loads and llama.cpp's
``convert_hf_to_gguf.py`` converts.

:func:`checkpoint_model` does the same once per checkpoint into the cache, so ``--model`` may name
``RUN``, ``RUN/checkpoints/latest`` or ``RUN/checkpoints/step-N`` wherever a model folder is accepted.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from termrl.errors import PolicyError


def find_checkpoint(path: str | Path) -> tuple[Path, Path] | None:
    """(run folder, checkpoint folder) when ``path`` names a run, its ``checkpoints/latest`` or a ``step-N``
    checkpoint; None when it is no checkpoint at all.

    Raises:
        PolicyError: it looks like a run or checkpoint but is incomplete (the message says what is missing).
    """
    path = Path(path).expanduser()
    if path.is_file() and path.name == "latest" and path.parent.name == "checkpoints":
        run, ckpt = path.parent.parent, path.parent / path.read_text().strip()
    elif path.is_dir() and (path / "model.pt").is_file() and (path / "state.json").is_file():
        run, ckpt = path.parent.parent, path
    elif path.is_dir() and (path / "checkpoints" / "latest").is_file():
        run = path
        ckpt = path / "checkpoints" / (path / "checkpoints" / "latest").read_text().strip()
    else:
        return None
    if not (ckpt / "model.pt").is_file():
        raise PolicyError(f"checkpoint {ckpt} has no model.pt -- the run's checkpoints/latest names a checkpoint "
                          "that is gone; point at an existing checkpoints/step-N folder")
    if not (run / "config.json").is_file():
        raise PolicyError(f"checkpoint {ckpt}: the run folder {run} has no config.json naming the base model -- "
                          "keep checkpoints inside the run folder that `termrl train` wrote")
    return run, ckpt


def export_model(path: str | Path, out: str | Path) -> Path:
    """Write the trained model of a run or checkpoint as a Hugging Face model folder ``out``.

    Raises:
        PolicyError: ``path`` is no checkpoint, or the base model cannot be loaded.
        FileExistsError: ``out`` exists and is not empty.
    """
    import torch

    from termrl.policies.hf import HFConfig, load_engine

    found = find_checkpoint(path)
    if found is None:
        raise PolicyError(f"{path}: not a training run or checkpoint -- give RUN, RUN/checkpoints/latest or "
                          "RUN/checkpoints/step-N")
    run, ckpt = found
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} exists and is not empty -- choose another --out or remove it")
    model_cfg = json.loads((run / "config.json").read_text()).get("model", {})
    engine = load_engine(HFConfig(model=model_cfg.get("path"), device="cpu", dtype="float32", private=True))
    try:
        model, tokenizer = engine.model, engine.tokenizer
        state = torch.load(ckpt / "model.pt", weights_only=True, map_location="cpu")
        if model_cfg.get("lora"):
            from peft import LoraConfig, get_peft_model

            model = get_peft_model(model, LoraConfig(
                r=model_cfg.get("lora_rank", 16), lora_alpha=model_cfg.get("lora_alpha", 32),
                target_modules=list(model_cfg.get("lora_targets") or []), lora_dropout=0.0))
            params = dict(model.named_parameters())
            missing = sorted(set(state) - set(params))
            if missing:
                raise PolicyError(f"checkpoint {ckpt}: adapter weights {missing[:3]} do not fit the base model")
            with torch.no_grad():
                for name, value in state.items():
                    params[name].copy_(value)
            model = model.merge_and_unload()
        else:
            model.load_state_dict(state)
        # A model read from GGUF is dequantized to plain tensors on load, but transformers still marks it as
        # "quantized with gguf" and refuses to save it: drop the mark, the weights are ordinary float tensors.
        model.hf_quantizer = None
        if getattr(model.config, "quantization_config", None) is not None:
            del model.config.quantization_config
        tmp = out.with_name(out.name + f".{os.getpid()}.tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        model.save_pretrained(tmp, safe_serialization=True)
        tokenizer.save_pretrained(tmp)
        if not (tmp / "chat_template.jinja").is_file() and tokenizer.chat_template:
            (tmp / "chat_template.jinja").write_text(tokenizer.chat_template)
        (tmp / "termrl_checkpoint.json").write_text(json.dumps({"run": str(run.resolve()), "checkpoint": ckpt.name,
                                                                "base_model": model_cfg.get("path")}))
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists():
            out.rmdir()
        tmp.rename(out)
    finally:
        engine.close()
    return out


def checkpoint_model(path: str | Path) -> Path | None:
    """A cached Hugging Face folder of the checkpoint ``path`` names (exported on first use); None if no checkpoint."""
    from termrl.cache import CACHE_DIR

    found = find_checkpoint(path)
    if found is None:
        return None
    _, ckpt = found
    weights = ckpt / "model.pt"
    stat = weights.stat()
    key = hashlib.sha256(f"{weights.resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    folder = CACHE_DIR / "checkpoints" / f"{ckpt.name}-{key}"
    if not (folder / "config.json").is_file():
        shutil.rmtree(folder, ignore_errors=True)
        export_model(path, folder)
    return folder
