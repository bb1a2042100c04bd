"""One loader for ``package.module:Name`` plugin paths: agents, policies and judges all accept one."""

from __future__ import annotations

import importlib
from typing import Any


def load_plugin(path: str) -> Any:
    """The object that ``package.module:Name`` names (usually a class; the caller builds it).

    Raises:
        ValueError: ``path`` is not ``module:Name``, the module does not import (the ImportError is
            the ``__cause__``), or it has no attribute ``Name``.
    """
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"{path!r} is not a plugin path -- fix: write package.module:Name")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"cannot import {module_name} ({exc})") from exc
    try:
        return getattr(module, attr)
    except AttributeError:
        raise ValueError(f"{module_name} has no attribute {attr!r}") from None
