"""py-bugfix: find and fix the bugs injected into a generated Python helper module.

The module is assembled from functions of ``_bug_pool``; 1, 2 or 3 of them carry a one-line bug.
The agent sees the docstrings and a few visible tests (at level 3 they miss some bugs); the hidden
tests call every function on fresh inputs whose expected values come from the correct source.
"""

from __future__ import annotations

import random

from termrl.tasks.generators._bug_pool import POOL, PoolFunction
from termrl.tasks.generators._common import Family, Instance, python_script, render

PACKAGES = ["toolkit", "helpers", "utilkit", "common", "shared", "corelib"]
MODULES = ["textops", "numbers", "misc", "basics", "routines", "calc"]


def _run(source: str, fn: PoolFunction, args: tuple) -> object:
    namespace: dict = {}
    exec("import re\n" + source, namespace)  # our own pool source, never agent input
    try:
        return namespace[fn.name](*args)
    except Exception as exc:  # a buggy variant may crash: that is a failing case
        return f"raised {type(exc).__name__}"


def _fails(source: str, fn: PoolFunction, cases: list[tuple], expected: list) -> bool:
    for args, want in zip(cases, expected):
        got = _run(source, fn, args)
        if fn.approx and isinstance(got, (int, float, list)) and not isinstance(got, str):
            if isinstance(got, list) and isinstance(want, list) and len(got) == len(want) and all(
                    abs(a - b) < 1e-6 for a, b in zip(got, want)):
                continue
            if not isinstance(got, list) and abs(got - want) < 1e-6:
                continue
            return True
        if got != want:
            return True
    return False


TEST_HEAD = """
import inspect
import sys

import pytest

sys.path.insert(0, "/app")
"""

TEST_FUNC = """

@pytest.mark.parametrize("args, expected", @@CASES@@)
def test_@@NAME@@(args, expected):
    result = @@MODULE@@.@@NAME@@(*args)
    assert result == @@COMPARE@@
"""

TEST_SIGNATURES = """

def test_signatures_unchanged():
    for module, name, params in @@SIGNATURES@@:
        func = getattr(sys.modules[module], name)
        assert tuple(inspect.signature(func).parameters) == params, name
"""

FIX = """
from pathlib import Path
for path, old, new in @@EDITS@@:
    file = Path(path)
    text = file.read_text()
    assert text.count(old) == 1, (path, old)
    file.write_text(text.replace(old, new))
"""


def make(rng: random.Random, difficulty: int) -> Instance:
    package = rng.choice(PACKAGES)
    n_funcs, n_bugs = {1: (3, 1), 2: (5, 2), 3: (8, 3)}[difficulty]
    funcs = rng.sample(POOL, n_funcs)
    buggy = rng.sample(funcs, n_bugs)
    modules = rng.sample(MODULES, 2 if difficulty == 3 else 1)
    home = {fn.name: modules[i % len(modules)] for i, fn in enumerate(funcs)}

    cases: dict[str, list] = {}
    for fn in funcs:
        args = fn.cases(rng)
        expected = [_run(fn.source, fn, a) for a in args]
        cases[fn.name] = [(a, e) for a, e in zip(args, expected)]
        if fn in buggy:
            for variant in (fn.buggy, fn.wrong):
                source = fn.source.replace(fn.fixed, variant)
                assert _fails(source, fn, args, expected), f"{fn.name}: {variant!r} passes every case"

    files: dict[str, str] = {f"{package}/__init__.py": ""}
    for module in modules:
        members = [fn for fn in funcs if home[fn.name] == module]
        body = "\n\n".join(fn.source.replace(fn.fixed, fn.buggy) if fn in buggy else fn.source for fn in members)
        files[f"{package}/{module}.py"] = f'"""Small helpers of the {package} package."""\n\nimport re\n\n\n' + body
        for fn in members:
            snippet = fn.buggy if fn in buggy else fn.fixed
            assert files[f"{package}/{module}.py"].count(snippet) == 1, f"{fn.name}: ambiguous snippet"

    # Visible tests: the first (edge) case of each function; at level 3, only one bug shows.
    visible_funcs = [fn for fn in funcs if difficulty < 3 or fn not in buggy[1:]]
    visible = ["import sys\n\nsys.path.insert(0, \"/app\")\n"]
    for module in modules:
        visible.append(f"from {package} import {module}  # noqa: E402")
    for fn in visible_funcs:
        args, want = cases[fn.name][0]
        visible.append(f"\n\ndef test_{fn.name}():\n    assert {home[fn.name]}.{fn.name}(*{args!r}) == {want!r}")
    files["tests/test_visible.py"] = "\n".join(visible) + "\n"

    tests = render(TEST_HEAD) + "".join(f"import {package}.{m} as {m}  # noqa: E402\n" for m in modules)
    for fn in funcs:
        compare = "pytest.approx(expected)" if fn.approx else "expected"
        template = TEST_FUNC.replace("@@NAME@@", fn.name).replace("@@MODULE@@", home[fn.name])
        tests += render(template.replace("@@COMPARE@@", compare), cases=cases[fn.name])
    signatures = [(f"{package}.{home[fn.name]}", fn.name, fn.params) for fn in funcs]
    tests += render(TEST_SIGNATURES, signatures=signatures)

    def edits(last_wrong: bool) -> list[tuple[str, str, str]]:
        out = []
        for i, fn in enumerate(buggy):
            new = fn.wrong if last_wrong and i == len(buggy) - 1 else fn.fixed
            out.append((f"/app/{package}/{home[fn.name]}.py", fn.buggy, new))
        return out

    where = " and ".join(f"`/app/{package}/{m}.py`" for m in modules)
    count = {1: "One function has a bug", 2: "Two functions have bugs",
             3: "Some functions have bugs, and the visible tests do not catch all of them"}[difficulty]
    instruction = f"""
The Python package `/app/{package}` ({where}) holds small helper functions, each documented by its
docstring. {count}: they do not do what their docstring says.

Fix the bugs in place. Keep every function's name and signature, and do not change the behaviour of
the correct functions. Hidden tests call every function on new inputs and compare the results with
what the docstrings specify.

A few tests are in `/app/tests/test_visible.py` (`cd /app && python3 -m pytest tests`).
"""
    return Instance(
        instruction=instruction,
        files=files,
        solve=python_script(render(FIX, edits=edits(False))),
        wrong={"wrong_hasty_fix.sh": python_script(render(FIX, edits=edits(True)))},
        tests=tests,
        answer={"package": package, "modules": modules, "bugs": [fn.name for fn in buggy], "cases": cases},
    )


FAMILY = Family(
    name="py-bugfix",
    category="debugging",
    tags=("python", "debugging", "testing"),
    summary="Fix the one-line bugs injected into a generated Python helper package, judged by hidden tests.",
    make=make,
)
