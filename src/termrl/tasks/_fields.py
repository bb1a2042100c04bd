"""Typed field readers shared by the task loaders: each names the file and field on error."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from termrl.errors import TaskError
from termrl.types import DIFFICULTIES


class Fields:
    """Reads typed values from one parsed mapping, raising TaskError with the exact location."""

    def __init__(self, file: Path, data: dict[str, Any], section: str | None = None):
        self.file = file
        self.data = data
        self.section = section

    def _name(self, key: str) -> str:
        return f"[{self.section}] {key}" if self.section else key

    def sub(self, section: str) -> "Fields":
        value = self.data.get(section, {})
        if not isinstance(value, dict):
            raise TaskError(self.file, f"expected a table, got {type(value).__name__}",
                            f"write it as a [{section}] table", field=f"[{section}]")
        return Fields(self.file, value, section)

    def number(self, key: str, default: float, *, positive: bool = True) -> float:
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TaskError(self.file, f"expected a number, got {value!r}",
                            f"write a number such as {default}", field=self._name(key))
        if positive and value <= 0:
            raise TaskError(self.file, f"must be positive, got {value!r}",
                            f"write a number above 0 such as {default}", field=self._name(key))
        return float(value)

    def boolean(self, key: str, default: bool) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise TaskError(self.file, f"expected true or false, got {value!r}",
                            "write true or false (no quotes)", field=self._name(key))
        return value

    def string(self, key: str, default: str | None = None) -> str | None:
        value = self.data.get(key, default)
        if value is not None and not isinstance(value, str):
            raise TaskError(self.file, f"expected a string, got {value!r}",
                            "put the value in quotes", field=self._name(key))
        return value

    def string_list(self, key: str) -> tuple[str, ...]:
        value = self.data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise TaskError(self.file, f"expected a list of strings, got {value!r}",
                            'write e.g. ["python", "files"]', field=self._name(key))
        return tuple(value)

    def difficulty(self, key: str = "difficulty") -> str:
        value = self.data.get(key, "unknown")
        if not isinstance(value, str) or value.lower().replace("-", "_") not in DIFFICULTIES:
            raise TaskError(self.file, f"unknown difficulty {value!r}",
                            f"use one of {', '.join(DIFFICULTIES[:-1])}", field=self._name(key))
        return value.lower().replace("-", "_")

    def memory_mb(self, default: int) -> int:
        """``memory_mb = 2048`` or the older ``memory = "2G"`` spelling."""
        if "memory_mb" in self.data:
            return int(self.number("memory_mb", default))
        if "memory" not in self.data:
            return default
        value = self.data["memory"]
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            return int(value)
        match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgG])?[bB]?\s*", str(value))
        if not match:
            raise TaskError(self.file, f"cannot read memory size {value!r}",
                            'write memory_mb = 2048 (or memory = "2G")', field=self._name("memory"))
        scale = {"k": 1 / 1024, "m": 1, "g": 1024, None: 1 / (1024 * 1024)}[
            match.group(2).lower() if match.group(2) else None]
        return max(16, int(float(match.group(1)) * scale))


def read_text(path: Path, what: str, fix: str) -> str:
    if not path.is_file():
        raise TaskError(path, f"missing {what}", fix)
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TaskError(path, f"{what} is not UTF-8 text ({exc.reason})", "save it as UTF-8") from exc
