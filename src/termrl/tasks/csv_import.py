"""The seed dataset's CSV format -> Harbor task folders (`termrl tasks import-csv`).

Terminal-Bench-RL ships its tasks as one CSV with the columns ``task_id, difficulty, title,
use_case_category, prompt, category, tags, dockerfile, test_functions, test_weights,
additional_files, created_at, updated_at``. Each row becomes::

    <task_id>/
      instruction.md            prompt
      task.toml                 difficulty, category, tags (pipe-separated), title, use_case_category, dates
      environment/Dockerfile    dockerfile (its FROM goes through termrl's FROM aliases at build time)
      environment/<path>        additional_files: a JSON object {relative path: file text}
      tests/test_outputs.py     test_functions: pytest source
      tests/test_weights.json   test_weights: a JSON object {test name: weight}; termrl's test score
                                weights each test's result by it
      tests/test.sh             runs pytest (JUnit XML for per-test results) and writes the weighted
                                reward to /logs/verifier/reward.txt

The CSV carries no reference solution (an optional ``solution`` column, if present, becomes
``solution/solve.sh``); such tasks are marked ``reference_solution = false`` in task.toml, and
validation checks what it can without one: the image builds and the no-op agent scores 0.

A bad row is reported with its row number, task id and column, and the other rows are still
imported.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

COLUMNS = ("task_id", "difficulty", "title", "use_case_category", "prompt", "category", "tags", "dockerfile",
           "test_functions", "test_weights", "additional_files", "created_at", "updated_at")
REQUIRED = ("task_id", "prompt", "dockerfile", "test_functions")
DIFFICULTIES = ("easy", "medium", "hard", "extremely_hard")
_TASK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
_TEST_DEF = re.compile(r"^\s*(?:async\s+)?def\s+(test\w*)\s*\(", re.M)

# Runs the tests, keeps per-test results as JUnit XML (termrl's verifier reads them), and writes the
# weighted share of passed tests as the reward, so any Harbor-compatible runner sees the same reward.
TEST_SH = r"""#!/bin/bash
# Written by `termrl tasks import-csv`: pytest over test_outputs.py, reward = weighted share of passed tests.
mkdir -p /logs/verifier
cd /tests
if python3 -c "import pytest" 2>/dev/null; then
    python3 -m pytest --junitxml=/logs/verifier/junit.xml -rA /tests/test_outputs.py
else
    uvx --offline pytest --junitxml=/logs/verifier/junit.xml -rA /tests/test_outputs.py \
        || uvx pytest --junitxml=/logs/verifier/junit.xml -rA /tests/test_outputs.py
fi
python3 - <<'PY'
import json, re, xml.etree.ElementTree as ET
from pathlib import Path

weights = json.loads(Path("/tests/test_weights.json").read_text())
def weight(name):
    base = re.sub(r"\[.*\]$", "", name)
    for key in (name, base, base[5:] if base.startswith("test_") else None):
        if key is not None and key in weights:
            return float(weights[key])
    return 0.0
try:
    cases = ET.parse("/logs/verifier/junit.xml").getroot().iter("testcase")
except (OSError, ET.ParseError):
    cases = []
total = passed = 0.0
for case in cases:
    w = weight(case.get("name", ""))
    total += w
    if not any(child.tag in ("failure", "error", "skipped") for child in case):
        passed += w
Path("/logs/verifier/reward.txt").write_text(f"{passed / total if total else 0.0:.6f}\n")
PY
"""


class RowError(ValueError):
    """One CSV row cannot become a task: names the row, the task id and the column."""

    def __init__(self, file: Path, row: int, task_id: str, column: str, problem: str, fix: str):
        self.row, self.task_id, self.column = row, task_id, column
        super().__init__(f"{file}: row {row} (task_id {task_id!r}), column {column}: {problem} -- fix: {fix}")


@dataclass
class ImportReport:
    imported: list[Path] = field(default_factory=list)
    without_solution: list[str] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    skipped_existing: list[str] = field(default_factory=list)


def _json_object(value: str, err, what: str) -> dict:
    try:
        data = json.loads(value)
    except json.JSONDecodeError as exc:
        raise err(f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})",
                  f"write {what} as a JSON object") from exc
    if not isinstance(data, dict):
        raise err(f"expected a JSON object, got {type(data).__name__}", f"write {what} as a JSON object")
    return data


def _weights(value: str, tests: list[str], err) -> dict[str, float]:
    if not value.strip():  # no weights: every test counts the same
        return {name: 1.0 for name in tests}
    data = _json_object(value, err, '{"test name": weight, ...}')
    known = set(tests) | {t[5:] for t in tests if t.startswith("test_")}
    out = {}
    for name, weight in data.items():
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight < 0:
            raise err(f"weight of {name!r} is {weight!r}", "give every test a number >= 0")
        if name not in known:
            raise err(f"{name!r} names no test in test_functions (tests: {', '.join(tests)})",
                      "use the test function names, with or without the test_ prefix")
        out[name] = float(weight)
    if not out or sum(out.values()) <= 0:
        raise err("the weights sum to 0", "give at least one test a positive weight")
    return out


def _files(value: str, err) -> dict[str, str]:
    if not value.strip():
        return {}
    data = _json_object(value, err, '{"relative/path": "file text", ...}')
    out = {}
    for name, text in data.items():
        path = PurePosixPath(name)
        if not name or path.is_absolute() or ".." in path.parts:
            raise err(f"path {name!r} leaves the build context", "use a relative path inside it, e.g. data/input.txt")
        if path.parts and path.parts[0] == "Dockerfile" and len(path.parts) == 1:
            raise err("a file named Dockerfile would replace the dockerfile column", "put the Dockerfile in dockerfile")
        if not isinstance(text, str):
            raise err(f"the content of {name!r} is a {type(text).__name__}", "give each file's text as a string")
        out[str(path)] = text
    return out


def _tags(value: str) -> list[str]:
    value = value.strip()
    if value.startswith("["):
        try:
            return [str(t).strip() for t in json.loads(value) if str(t).strip()]
        except (json.JSONDecodeError, TypeError):
            pass
    return [t.strip() for t in re.split(r"[|,]", value) if t.strip()]


def _toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def build_task(row: dict[str, str], number: int, file: Path, out: Path) -> tuple[Path, bool]:
    """Write the task folder of one CSV row; returns its path and whether it has a reference solution.

    Raises:
        RowError: a column is missing or malformed (nothing is written for the row).
    """
    task_id = (row.get("task_id") or "").strip()

    def error_for(column: str):
        return lambda problem, fix: RowError(file, number, task_id, column, problem, fix)

    for column in REQUIRED:
        if not (row.get(column) or "").strip():
            raise error_for(column)("empty", f"give every row a {column}")
    if not _TASK_ID.match(task_id):
        raise error_for("task_id")("not usable as a folder name",
                                   "use letters, digits, '.', '_' and '-' (at most 128), starting with a letter or digit")
    difficulty = (row.get("difficulty") or "").strip().lower().replace(" ", "_").replace("-", "_") or "unknown"
    if difficulty not in (*DIFFICULTIES, "unknown"):
        raise error_for("difficulty")(f"{row.get('difficulty')!r} is not a difficulty", f"use one of {', '.join(DIFFICULTIES)}")
    dockerfile = row["dockerfile"].replace("\r\n", "\n")
    if not re.search(r"^\s*FROM\s+\S+", dockerfile, re.M | re.I):
        raise error_for("dockerfile")("no FROM line", "start the Dockerfile with FROM <image>")
    tests_source = row["test_functions"].replace("\r\n", "\n")
    try:
        compile(tests_source, f"{task_id}/tests/test_outputs.py", "exec")
    except SyntaxError as exc:
        raise error_for("test_functions")(f"not valid Python ({exc.msg}, line {exc.lineno})",
                                          "give the pytest source of the tests") from exc
    tests = _TEST_DEF.findall(tests_source)
    if not tests:
        raise error_for("test_functions")("defines no test_* function", "give pytest functions named test_...")
    weights = _weights(row.get("test_weights") or "", tests, error_for("test_weights"))
    files = _files(row.get("additional_files") or "", error_for("additional_files"))
    solution = (row.get("solution") or "").replace("\r\n", "\n").strip()

    task = out / task_id
    tmp = out / f".{task_id}.importing"
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "environment").mkdir(parents=True)
    (tmp / "tests").mkdir()
    (tmp / "instruction.md").write_text(row["prompt"].replace("\r\n", "\n").strip() + "\n")
    meta = [f"difficulty = {_toml_string(difficulty)}",
            f"category = {_toml_string((row.get('category') or '').strip() or 'uncategorized')}",
            f"tags = [{', '.join(_toml_string(t) for t in _tags(row.get('tags') or ''))}]",
            f"reference_solution = {'true' if solution else 'false'}"]
    for key in ("title", "use_case_category", "created_at", "updated_at"):
        if (row.get(key) or "").strip():
            meta.append(f"{key} = {_toml_string(row[key].strip())}")
    meta.append(f"source = {_toml_string(f'{file.name} row {number}')}")
    (tmp / "task.toml").write_text(
        "# Imported by `termrl tasks import-csv`" + ("" if solution else " (no reference solution in the CSV)") + "\n"
        "[metadata]\n" + "\n".join(meta) + "\n\n[agent]\ntimeout_sec = 900\n\n[verifier]\ntimeout_sec = 300\n\n"
        "[environment]\ncpus = 1\nmemory_mb = 2048\n")
    (tmp / "environment" / "Dockerfile").write_text(dockerfile if dockerfile.endswith("\n") else dockerfile + "\n")
    for name, text in files.items():
        target = tmp / "environment" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    (tmp / "tests" / "test_outputs.py").write_text(tests_source)
    (tmp / "tests" / "test_weights.json").write_text(json.dumps(weights, indent=1) + "\n")
    (tmp / "tests" / "test.sh").write_text(TEST_SH)
    (tmp / "tests" / "test.sh").chmod(0o755)
    if solution:
        (tmp / "solution").mkdir()
        (tmp / "solution" / "solve.sh").write_text(solution + "\n")
    shutil.rmtree(task, ignore_errors=True)
    tmp.rename(task)
    return task, bool(solution)


def import_csv(file: str | Path, out: str | Path, overwrite: bool = False) -> ImportReport:
    """Write one Harbor task folder per row of ``file`` into ``out``.

    A bad row is recorded in the report's ``errors`` (row, task id, column, fix) and the other rows
    are still imported. An existing task folder is kept unless ``overwrite``.

    Raises:
        ValueError: the file cannot be read as CSV, or lacks a required column.
    """
    file, out = Path(file), Path(out)
    csv.field_size_limit(sys.maxsize)  # Dockerfiles and test sources are long cells
    try:
        handle = open(file, newline="", encoding="utf-8-sig")
    except OSError as exc:
        raise ValueError(f"{file}: cannot read ({exc.strerror}) -- pass the CSV file of the dataset") from exc
    report = ImportReport()
    with handle:
        reader = csv.DictReader(handle)
        columns = [c.strip() for c in reader.fieldnames or []]
        missing = [c for c in REQUIRED if c not in columns]
        if missing:
            raise ValueError(f"{file}: missing column(s) {', '.join(missing)} (has: {', '.join(columns) or 'none'}) "
                             f"-- fix: the header must name the columns {', '.join(COLUMNS)}")
        out.mkdir(parents=True, exist_ok=True)
        seen: set[str] = set()
        try:
            for number, raw in enumerate(reader, start=1):
                row = {(k or "").strip(): v if isinstance(v, str) else "" for k, v in raw.items()}
                task_id = (row.get("task_id") or "").strip()
                if task_id in seen:
                    report.errors.append(RowError(file, number, task_id, "task_id", "the same id as an earlier row",
                                                  "give every task a unique task_id"))
                    continue
                seen.add(task_id)
                if not overwrite and task_id and (out / task_id).exists():
                    report.skipped_existing.append(task_id)
                    continue
                try:
                    path, has_solution = build_task(row, number, file, out)
                except RowError as exc:
                    report.errors.append(exc)
                    continue
                report.imported.append(path)
                if not has_solution:
                    report.without_solution.append(path.name)
        except csv.Error as exc:
            raise ValueError(f"{file}: not readable as CSV at line {reader.line_num} ({exc}) -- fix: quote cells "
                             "that hold commas, quotes or newlines") from exc
    return report
