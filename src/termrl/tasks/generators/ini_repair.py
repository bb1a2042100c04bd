"""ini-repair: bring a generated INI config back in line with its spec.

Invalid values are replaced by the key's default (not clamped or coerced), missing keys are added,
unknown keys removed; at level 3 duplicated keys appear too (the last occurrence is the one to judge).
"""

from __future__ import annotations

import random

from termrl.tasks.generators._common import WORDS, Family, Instance, python_script, render

# key -> (kind, args) templates per section; ranges and defaults are drawn per seed.
SECTIONS = {
    "server": ["port:int", "workers:int", "debug:bool", "log_level:enum", "hostname:name"],
    "database": ["pool_size:int", "timeout_s:int", "ssl:bool", "engine:enum", "schema:name"],
    "cache": ["ttl_s:int", "max_items:int", "enabled:bool", "policy:enum"],
    "metrics": ["interval_s:int", "push:bool", "backend:enum", "prefix:name"],
}
ENUMS = {"log_level": ["debug", "info", "warning", "error"], "engine": ["postgres", "mysql", "sqlite"],
         "policy": ["lru", "lfu", "fifo"], "backend": ["statsd", "prometheus", "graphite"]}


def _spec(rng: random.Random, n_sections: int) -> dict[str, dict[str, dict]]:
    spec: dict[str, dict[str, dict]] = {}
    for section in rng.sample(sorted(SECTIONS), n_sections):
        keys = {}
        for entry in SECTIONS[section]:
            key, kind = entry.split(":")
            if kind == "int":
                lo = rng.choice([1, 2, 5, 10, 30, 100, 1024])
                hi = lo * rng.choice([4, 8, 16, 50]) + rng.randint(0, 9)
                keys[key] = {"kind": "int", "min": lo, "max": hi, "default": str(rng.randint(lo + 1, hi - 1))}
            elif kind == "bool":
                keys[key] = {"kind": "bool", "default": rng.choice(["true", "false"])}
            elif kind == "enum":
                keys[key] = {"kind": "enum", "choices": ENUMS[key], "default": rng.choice(ENUMS[key])}
            else:
                keys[key] = {"kind": "name", "default": f"{rng.choice(WORDS)}-{rng.randint(1, 99)}"}
        spec[section] = keys
    return spec


def _valid_value(rng: random.Random, rule: dict) -> str:
    if rule["kind"] == "int":
        return str(rng.randint(rule["min"], rule["max"]))
    if rule["kind"] == "bool":
        return rng.choice(["true", "false"])
    if rule["kind"] == "enum":
        return rng.choice(rule["choices"])
    return f"{rng.choice(WORDS)}.{rng.choice(WORDS)}"


def _invalid_value(rng: random.Random, rule: dict, out_of_range: bool = False) -> str:
    if rule["kind"] == "int":
        if out_of_range:
            return str(rule["max"] + rng.randint(1, 500))
        return rng.choice([f"{rule['min']}x", f"{rule['max']}.5", "", "ten", str(rule["min"] - rng.randint(1, 5))])
    if rule["kind"] == "bool":
        return rng.choice(["yes", "True", "1", "on", "falsy"])
    if rule["kind"] == "enum":
        return rng.choice(rule["choices"]).upper() + rng.choice(["", "s"])
    return rng.choice(["has space", "UPPER", "", "semi;colon"])


def _rule_text(key: str, rule: dict) -> str:
    if rule["kind"] == "int":
        what = f"an integer from {rule['min']} to {rule['max']} inclusive (digits only, optional leading `-`)"
    elif rule["kind"] == "bool":
        what = "exactly `true` or `false`"
    elif rule["kind"] == "enum":
        what = "one of " + ", ".join(f"`{c}`" for c in rule["choices"]) + " (exact, lowercase)"
    else:
        what = "a non-empty name of lowercase letters, digits, `.` and `-`"
    return f"| `{key}` | {what} | `{rule['default']}` |"


SOLVE = """
import configparser, re
SPEC = @@SPEC@@
CLAMP = @@CLAMP@@

def valid(rule, value):
    if rule["kind"] == "int":
        return re.fullmatch(r"-?[0-9]+", value) is not None and rule["min"] <= int(value) <= rule["max"]
    if rule["kind"] == "bool":
        return value in ("true", "false")
    if rule["kind"] == "enum":
        return value in rule["choices"]
    return re.fullmatch(r"[a-z0-9.-]+", value) is not None

parser = configparser.ConfigParser(strict=False, interpolation=None)  # duplicates: the last one wins
parser.read("/app/config/app.ini")
fixed = configparser.ConfigParser(interpolation=None)
for section, keys in SPEC.items():
    fixed.add_section(section)
    for key, rule in keys.items():
        value = parser.get(section, key, fallback=None)
        if value is None or not valid(rule, value):
            if CLAMP and value is not None and re.fullmatch(r"-?[0-9]+", value):
                value = str(min(max(int(value), rule["min"]), rule["max"]))
            else:
                value = rule["default"]
        fixed.set(section, key, value)
with open("/app/config/app.ini", "w") as fh:
    fixed.write(fh)
"""

DUPLICATES = "\n- When a key appears more than once in a section, its last occurrence is its value (judge that one)."

TESTS = """
import configparser
from pathlib import Path

import pytest

EXPECTED = @@EXPECTED@@


@pytest.fixture(scope="module")
def config():
    parser = configparser.ConfigParser(interpolation=None)  # strict: a duplicate key fails here
    parser.read_string(Path("/app/config/app.ini").read_text())
    return parser


def test_sections(config):
    assert sorted(config.sections()) == sorted(EXPECTED)


def test_no_unknown_or_missing_keys(config):
    for section, keys in EXPECTED.items():
        assert sorted(config[section]) == sorted(keys), section


def test_valid_values_kept(config):
    for section, keys in EXPECTED.items():
        for key, (value, was_valid) in keys.items():
            if was_valid:
                assert config.get(section, key, fallback=None) == value, f"[{section}] {key}"


def test_invalid_values_reset_to_default(config):
    for section, keys in EXPECTED.items():
        for key, (value, was_valid) in keys.items():
            if not was_valid:
                assert config.get(section, key, fallback=None) == value, f"[{section}] {key}"


def test_spec_copy_untouched():
    assert "| Key | Rule | Default |" in Path("/app/config/SPEC.md").read_text()
"""


def make(rng: random.Random, difficulty: int) -> Instance:
    spec = _spec(rng, {1: 2, 2: 3, 3: 4}[difficulty])
    n_bad = {1: 2, 2: 4, 3: 6}[difficulty]
    all_keys = [(s, k) for s, keys in spec.items() for k in keys]
    int_keys = [sk for sk in all_keys if spec[sk[0]][sk[1]]["kind"] == "int"]
    bad = [rng.choice(int_keys)]  # an out-of-range integer: clamping instead of resetting is the trap
    bad += rng.sample([sk for sk in all_keys if sk not in bad], n_bad - 1)
    missing = rng.sample([sk for sk in all_keys if sk not in bad], difficulty - 1)
    duplicated = rng.sample([sk for sk in all_keys if sk not in bad and sk not in missing], 2 if difficulty == 3 else 0)

    expected: dict[str, dict[str, tuple[str, bool]]] = {}
    lines: list[str] = ["; service configuration -- see SPEC.md", ""]
    for section, keys in spec.items():
        lines.append(f"[{section}]")
        expected[section] = {}
        for key, rule in keys.items():
            if (section, key) in missing:
                expected[section][key] = (rule["default"], False)
                continue
            if (section, key) in duplicated:
                # An invalid first occurrence, then the valid one that counts.
                lines.append(f"{key} = {_invalid_value(rng, rule)}")
            if (section, key) in bad:
                value = _invalid_value(rng, rule, out_of_range=(section, key) == bad[0])
                expected[section][key] = (rule["default"], False)
            else:
                value = _valid_value(rng, rule)
                expected[section][key] = (value, True)
            lines.append(f"{key} = {value}" if value else f"{key} =")
        if difficulty >= 2:
            lines.append(f"{rng.choice(['legacy', 'old', 'tmp'])}_{rng.choice(WORDS)} = {rng.randint(1, 9)}")
        lines.append("")
    spec_md = ["# app.ini specification", "",
               "Every section below must be present with exactly these keys (no others).", ""]
    for section, keys in spec.items():
        spec_md += [f"## [{section}]", "", "| Key | Rule | Default |", "|---|---|---|"]
        spec_md += [_rule_text(k, r) for k, r in keys.items()] + [""]
    instruction = f"""
The service configuration `/app/config/app.ini` no longer matches its specification, `/app/config/SPEC.md`
(sections, keys, the rule each value must follow, and each key's default).

Repair `/app/config/app.ini` in place so that:

- it parses with Python's `configparser.ConfigParser(interpolation=None)` (strict: no duplicated key),
- every section and key of the spec is present and no other section or key is,
- every value that follows its rule is kept exactly as it is,
- every value that breaks its rule is replaced by the key's **default** (do not clamp, round or re-case it),
- a missing key gets its default.{DUPLICATES if difficulty == 3 else ""}

Comments and formatting need not be preserved. Do not edit SPEC.md.
"""
    return Instance(
        instruction=instruction,
        files={"config/app.ini": "\n".join(lines), "config/SPEC.md": "\n".join(spec_md)},
        solve=python_script(render(SOLVE, spec=spec, clamp=False)),
        wrong={"wrong_clamp_out_of_range.sh": python_script(render(SOLVE, spec=spec, clamp=True))},
        tests=render(TESTS, expected=expected),
        answer=expected,
    )


FAMILY = Family(
    name="ini-repair",
    category="system-administration",
    tags=("config", "ini", "validation"),
    summary="Repair a generated INI config against its spec: defaults for invalid values, add missing, drop unknown.",
    make=make,
)
