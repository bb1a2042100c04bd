"""Where termrl keeps what it can rebuild: image build locks and task validation records."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_DIR = Path(os.environ.get("TERMRL_CACHE", Path.home() / ".cache" / "termrl"))
"""``$TERMRL_CACHE``, default ``~/.cache/termrl``."""
