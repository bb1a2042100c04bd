#!/bin/bash
set -euo pipefail
cd /app/textstats
cat > pyproject.toml <<'TOML'
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "textstats"
dynamic = ["version"]
description = "Tiny text statistics"
requires-python = ">=3.9"

[project.scripts]
textstats = "textstats.cli:main"

[tool.setuptools]
package-dir = {"" = "src"}
include-package-data = false

[tool.setuptools.packages.find]
where = ["src"]
include = ["textstats*"]

[tool.setuptools.package-data]
textstats = ["data/*.txt"]

[tool.setuptools.dynamic]
version = {attr = "textstats.__version__"}
TOML
cat > src/textstats/__main__.py <<'PY'
import sys

from .cli import main

sys.exit(main())
PY
