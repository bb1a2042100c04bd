"""Shared pieces of the task generators: the Instance and Family records and the Harbor folder writer.

A family's ``make(rng, difficulty)`` returns an :class:`Instance` held in memory; only
:func:`write_instance` touches the disk. Everything an instance holds must come from ``rng``
(never from set iteration order, the clock or the file system), so one seed gives one folder,
byte for byte.
"""

from __future__ import annotations

import random
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

DIFFICULTIES = {1: "easy", 2: "medium", 3: "hard"}
AGENT_TIMEOUT_SEC = {1: 600.0, 2: 900.0, 3: 1800.0}

DOCKERFILE = "FROM termrl/base:bookworm\nWORKDIR /app\nCOPY app/ /app/\n"

TEST_SH = """#!/bin/bash
mkdir -p /logs/verifier
cd /app
python3 -m pytest -q -p no:cacheprovider --junitxml=/logs/verifier/junit.xml -rA /tests/test_outputs.py
if [ $? -eq 0 ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
"""


@dataclass(frozen=True)
class Instance:
    """One generated task, before it is written out."""

    instruction: str
    """What the agent is told (markdown)."""
    files: dict[str, str | bytes]
    """The environment: path relative to /app -> content. Copied into the image at /app."""
    solve: str
    """solution/solve.sh: the reference solution (bash, no network)."""
    wrong: dict[str, str]
    """solution/wrong_<why>.sh -> a plausible mistake; the tests must reject each one."""
    tests: str
    """tests/test_outputs.py: the hidden pytest file (it holds the reference answers)."""
    answer: object
    """The reference answer (JSON-like); used to check that different seeds differ. Never shipped."""
    modes: dict[str, int] = field(default_factory=dict)
    """Optional file modes for entries of ``files`` (default 0o644, 0o755 for *.sh)."""


@dataclass(frozen=True)
class Family:
    """A generator of one kind of task."""

    name: str
    """Short name, lowercase-with-dashes; instances are named <name>-s<seed>-d<difficulty>."""
    category: str
    """termrl-v1 category (see datasets/termrl-v1/AUTHORING.md)."""
    tags: tuple[str, ...]
    summary: str
    """One line: what the agent has to do."""
    make: Callable[[random.Random, int], Instance]
    """Build an instance from a seeded RNG and a difficulty in 1..3."""


def task_toml(family: Family, difficulty: int) -> str:
    tags = ", ".join(f'"{t}"' for t in family.tags)
    return textwrap.dedent(f"""\
        version = "1.0"

        [metadata]
        author_name = "termrl"
        difficulty = "{DIFFICULTIES[difficulty]}"
        category = "{family.category}"
        tags = [{tags}]
        generator = "{family.name}"

        [agent]
        timeout_sec = {AGENT_TIMEOUT_SEC[difficulty]}

        [verifier]
        timeout_sec = 120.0

        [environment]
        build_timeout_sec = 300.0
        cpus = 1
        memory_mb = 1024
        allow_internet = false
        """)


def write_instance(instance: Instance, family: Family, difficulty: int, task_dir: Path) -> Path:
    """Write ``instance`` as a Harbor task folder at ``task_dir`` (which must not exist yet)."""
    task_dir.mkdir(parents=True)
    (task_dir / "instruction.md").write_text(instance.instruction.strip() + "\n")
    (task_dir / "task.toml").write_text(task_toml(family, difficulty))
    env = task_dir / "environment"
    (env / "app").mkdir(parents=True)
    (env / "Dockerfile").write_text(DOCKERFILE)
    for rel, content in sorted(instance.files.items()):
        path = env / "app" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        path.chmod(instance.modes.get(rel, 0o755 if rel.endswith(".sh") else 0o644))
    solution = task_dir / "solution"
    solution.mkdir()
    for name, script in {"solve.sh": instance.solve, **instance.wrong}.items():
        (solution / name).write_text(script)
        (solution / name).chmod(0o755)
    tests = task_dir / "tests"
    tests.mkdir()
    (tests / "test.sh").write_text(TEST_SH)
    (tests / "test.sh").chmod(0o755)
    (tests / "test_outputs.py").write_text(instance.tests)
    return task_dir


_PLACEHOLDER = re.compile(r"@@([A-Z0-9_]+)@@")


def render(template: str, **values: object) -> str:
    """Fill ``@@NAME@@`` placeholders with ``repr(value)`` (Python literals for test files).

    Raises:
        KeyError: a placeholder has no value (a generator bug).
    """
    return _PLACEHOLDER.sub(lambda m: repr(values[m.group(1).lower()]), textwrap.dedent(template))


def python_script(body: str) -> str:
    """A bash script that runs ``body`` (Python) from a quoted heredoc."""
    return "#!/bin/bash\nset -euo pipefail\npython3 - <<'PY'\n" + textwrap.dedent(body).strip() + "\nPY\n"


def bullet_list(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items)


FIRST_NAMES = ["Ada", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kira",
               "Luis", "Maya", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Sven", "Tara", "Umar", "Vera",
               "Wen", "Ximena", "Yusuf", "Zoe"]
LAST_NAMES = ["Abara", "Berg", "Castillo", "Dubois", "Eriksen", "Fontaine", "Gallo", "Haddad", "Ivanova",
              "Jensen", "Kowalski", "Lindqvist", "Moreau", "Novak", "Okafor", "Petrov", "Quiroga", "Rossi",
              "Sato", "Tanaka", "Urban", "Varga", "Weber", "Xu", "Yilmaz", "Zeller"]
CITIES = ["Aarhus", "Bilbao", "Cork", "Dresden", "Espoo", "Faro", "Graz", "Haarlem", "Izmir", "Krakow",
          "Lyon", "Malmo", "Nantes", "Oulu", "Porto", "Riga", "Split", "Turin", "Utrecht", "Vilnius"]
WORDS = ["amber", "basalt", "cobalt", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
         "kelp", "lagoon", "meadow", "nectar", "onyx", "prairie", "quartz", "ridge", "sierra", "tundra",
         "umber", "vertex", "willow", "yarrow", "zephyr"]
