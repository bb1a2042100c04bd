"""ini-repair: a program refuses its INI config; find the faults by running it and repair the file.

``/app/app.py`` (shipped) loads ``/app/config/app.ini`` with Python's strict ``configparser`` (basic
interpolation, UTF-8) and checks it against its SCHEMA; ``--check`` reports the first problem only.
A seed draws which faults the file has (1 at level 1, 2-3 at level 2, 4-5 at level 3) from a pool of
kinds that each fail differently and need a different repair:

- the file's encoding (Latin-1 or UTF-16), or a UTF-8 byte-order mark before the first section;
- a section or a key that appears twice (the later one holds the intended values);
- a literal ``%`` in a value (basic interpolation rejects it);
- an inline comment after a value, a line indented by mistake (it becomes part of the value above);
- a section name in the wrong case, a misspelled key;
- a value the schema rejects (reset to its default), a missing key (added with its default).

The instruction gives the repair rules for every kind but, at level 3, not which faults are present:
the agent runs the program, reads its errors and fixes one fault after another. The reference solution
is composed of one repair per fault kind present, so different seeds need different programs.
"""

from __future__ import annotations

import hashlib
import json
import random
import re

from termrl.tasks.generators._common import WORDS, Family, Instance, render

# section -> [(key, kind)]; ranges, choices and defaults are drawn per seed.
SECTIONS = {
    "server": [("port", "int"), ("workers", "int"), ("debug", "bool"), ("log_level", "choice"), ("banner", "text")],
    "database": [("pool_size", "int"), ("timeout_s", "int"), ("ssl", "bool"), ("engine", "choice"),
                 ("display_name", "text")],
    "cache": [("ttl_s", "int"), ("max_items", "int"), ("enabled", "bool"), ("policy", "choice"),
              ("label", "text")],
    "mail": [("smtp_port", "int"), ("retries", "int"), ("starttls", "bool"), ("auth", "choice"),
             ("sender_name", "text")],
    "metrics": [("interval_s", "int"), ("buffer_kb", "int"), ("push", "bool"), ("backend", "choice"),
                ("title", "text")],
}
CHOICES = {"log_level": ["debug", "info", "warning", "error"], "engine": ["postgres", "mysql", "sqlite"],
           "policy": ["lru", "lfu", "fifo"], "auth": ["plain", "login", "none"],
           "backend": ["statsd", "prometheus", "graphite"]}
ACCENTED = ["Zürich", "Malmö", "Göteborg", "Nîmes", "Besançon", "Ålesund", "Córdoba", "Reykjavík", "Kraków"]
NOUNS = ["Service", "Gateway", "Portal", "Desk", "Relay", "Hub"]

# Fault kinds. A file-level fault (encoding) appears at most once; the others take distinct keys.
ENCODING = ("latin1", "utf16", "bom")
KEY_FAULTS = ("dup_key", "percent", "inline_comment", "indent", "typo_key", "bad_value", "missing_key")
SECTION_FAULTS = ("dup_section", "section_case")

APP = r'''"""Loads the service configuration and checks it against SCHEMA.

Usage: python3 app.py [--config FILE] (--check | --dump)

The file is read as UTF-8 with Python's configparser (strict: no repeated section or key; basic
interpolation, so a literal percent sign is written %%). Every section and key of SCHEMA must be
present and no other. --check prints the first problem found and exits 1, or prints "config ok".
--dump prints every value as the app reads it (JSON).

SCHEMA: section -> key -> (kind, rule, default). int: (min, max) inclusive, digits only; bool: exactly
true or false; choice: one of the listed words; text: one non-empty line.
"""
import argparse
import configparser
import json
import sys

SCHEMA = @@SCHEMA@@


def load(path):
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except UnicodeDecodeError as err:
        raise ValueError(f"{path} is not valid UTF-8 ({err})")
    parser = configparser.ConfigParser()
    try:
        parser.read_string(text, source=path)
    except configparser.Error as err:
        raise ValueError(f"cannot parse {path}: {err}")
    for section in parser.sections():
        if section not in SCHEMA:
            raise ValueError(f"unknown section [{section}]")
    values = {}
    for section, keys in SCHEMA.items():
        if not parser.has_section(section):
            raise ValueError(f"missing section [{section}]")
        for key in parser[section]:
            if key not in keys:
                raise ValueError(f"[{section}] unknown key {key!r}")
        values[section] = {}
        for key, (kind, rule, default) in keys.items():
            if not parser.has_option(section, key):
                raise ValueError(f"[{section}] missing key {key!r}")
            try:
                raw = parser.get(section, key)
            except configparser.Error as err:
                raise ValueError(f"[{section}] {key}: {err}")
            values[section][key] = convert(section, key, kind, rule, raw)
    return values


def convert(section, key, kind, rule, raw):
    where = f"[{section}] {key} = {raw!r}"
    if kind == "int":
        if not raw.isdigit():
            raise ValueError(f"{where}: not an integer")
        if not rule[0] <= int(raw) <= rule[1]:
            raise ValueError(f"{where}: out of range {rule[0]}..{rule[1]}")
        return int(raw)
    if kind == "bool":
        if raw not in ("true", "false"):
            raise ValueError(f"{where}: not true or false")
        return raw == "true"
    if kind == "choice":
        if raw not in rule:
            raise ValueError(f"{where}: not one of {', '.join(rule)}")
        return raw
    if not raw.strip() or "\n" in raw:
        raise ValueError(f"{where}: must be one non-empty line")
    return raw


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="/app/config/app.ini")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--dump", action="store_true")
    args = parser.parse_args()
    try:
        values = load(args.config)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(1)
    print(json.dumps(values, indent=2, ensure_ascii=False) if args.dump else "config ok")


if __name__ == "__main__":
    main()
'''

TESTS = """
import hashlib
import json
import subprocess
from pathlib import Path

import pytest

APP = @@APP@@
APP_SHA256 = @@APP_SHA256@@
EXPECTED = @@EXPECTED@@
REPAIRED = @@REPAIRED@@


def run_app(tmp_path, flag):
    # A private copy of the program: the verdict does not depend on the shipped app.py.
    app = tmp_path / "app.py"
    app.write_text(APP)
    return subprocess.run(["python3", str(app), "--config", "/app/config/app.ini", flag],
                          capture_output=True, text=True, timeout=30)


@pytest.fixture()
def dump(tmp_path):
    result = run_app(tmp_path, "--dump")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_app_not_modified():
    assert hashlib.sha256(Path("/app/app.py").read_bytes()).hexdigest() == APP_SHA256


def test_app_accepts_the_config(tmp_path):
    result = run_app(tmp_path, "--check")
    assert result.returncode == 0 and "config ok" in result.stdout, result.stderr


def test_file_is_utf8_without_bom():
    data = Path("/app/config/app.ini").read_bytes()
    assert not data.startswith(b"\\xef\\xbb\\xbf")
    data.decode("utf-8")


@pytest.mark.parametrize("where", sorted(REPAIRED))
def test_repaired_value(dump, where):
    section, key = where.split("/")
    assert dump[section][key] == EXPECTED[section][key], where


def test_every_other_value_kept(dump):
    for section, keys in EXPECTED.items():
        for key, value in keys.items():
            assert dump[section][key] == value, f"[{section}] {key}"
"""

# --- the reference solution: shared helpers, then one repair per fault kind -------------------------------

SOLVE_HEAD = """#!/bin/bash
set -euo pipefail
cd /app/config
"""

PY_HEAD = """python3 - <<'PY'
import re
from pathlib import Path
path = Path("/app/config/app.ini")
lines = path.read_text(encoding="utf-8").split("\\n")

def key_of(line):
    match = re.match(r"\\s*([^=:;#\\[\\s][^=:]*?)\\s*[=:]", line)
    return match.group(1).lower() if match else None

def section_lines(name):
    current, found = None, []
    for i, line in enumerate(lines):
        if line.strip().startswith("["):
            current = line.strip()[1:-1]
        elif current == name:
            found.append(i)
    return found

def find_key(section, key):
    return [i for i in section_lines(section) if key_of(lines[i]) == key]

def set_value(section, key, value):
    at = find_key(section, key)
    if at:
        lines[at[-1]] = f"{key} = {value}"
    else:
        header = max(i for i, line in enumerate(lines) if line.strip() == f"[{section}]")
        lines.insert(header + 1, f"{key} = {value}")
"""

PY_TAIL = """path.write_text("\\n".join(lines), encoding="utf-8")
PY
"""

# kind -> (shell step before the Python part or None, Python step or None); @@X@@ are filled per fault.
REPAIRS = {
    "latin1": ("iconv -f LATIN1 -t UTF-8 app.ini > app.ini.new && mv app.ini.new app.ini", None),
    "utf16": ("iconv -f UTF-16 -t UTF-8 app.ini > app.ini.new && mv app.ini.new app.ini", None),
    "bom": ("sed -i '1s/^\\xEF\\xBB\\xBF//' app.ini", None),
    "dup_section": (None, """
# a repeated section: merge the later block into the first, its keys winning
later = max(i for i, line in enumerate(lines) if line.strip() == f"[{section}]")
end = next((i for i in range(later + 1, len(lines)) if lines[i].strip().startswith("[")), len(lines))
moved = [line for line in lines[later + 1:end] if key_of(line)]
del lines[later:end]
for line in moved:
    set_value(section, key_of(line), line.split("=", 1)[1].strip())
"""),
    "section_case": (None, """
lines = [f"[{section}]" if line.strip() == f"[{wrong}]" else line for line in lines]
"""),
    "dup_key": (None, """
for i in reversed(find_key(section, key)[:-1]):  # the later occurrence wins
    del lines[i]
"""),
    "percent": (None, """
for i in find_key(section, key):
    lines[i] = re.sub(r"%(?!%)", "%%", lines[i])
"""),
    "inline_comment": (None, """
for i in find_key(section, key):
    lines[i] = re.sub(r"\\s+[;#].*$", "", lines[i])
"""),
    "indent": (None, """
lines = [line.lstrip() if line.lstrip().startswith(key + " =") else line for line in lines]
"""),
    "typo_key": (None, """
for i in find_key(section, wrong):
    lines[i] = key + " =" + lines[i].split("=", 1)[1]
"""),
    "bad_value": (None, "set_value(section, key, default)\n"),
    "missing_key": (None, "set_value(section, key, default)\n"),
}

# kind -> the plausible mistake replacing that repair
MISTAKES = {
    "latin1": ("python3 -c \"import pathlib; p = pathlib.Path('app.ini'); "
               "p.write_bytes(p.read_bytes().decode('utf-8', 'ignore').encode())\"", None),
    "utf16": ("tr -d '\\000' < app.ini > app.ini.new && mv app.ini.new app.ini", None),
    "bom": ("sed -i 1d app.ini", None),
    "dup_section": (None, """
later = max(i for i, line in enumerate(lines) if line.strip() == f"[{section}]")
end = next((i for i in range(later + 1, len(lines)) if lines[i].strip().startswith("[")), len(lines))
del lines[later:end]
"""),
    "section_case": ("tr 'A-Z' 'a-z' < app.ini > app.ini.new && mv app.ini.new app.ini", None),
    "dup_key": (None, """
for i in reversed(find_key(section, key)[1:]):  # keeps the first occurrence
    del lines[i]
"""),
    "percent": (None, """
for i in find_key(section, key):
    lines[i] = lines[i].replace("%", "")
"""),
    "inline_comment": (None, """
for i in reversed(find_key(section, key)):
    del lines[i]
"""),
    "indent": (None, """
lines = [line for line in lines if not line.lstrip().startswith(key + " =")]
"""),
    "typo_key": (None, """
for i in reversed(find_key(section, wrong)):
    del lines[i]
set_value(section, key, default)
"""),
    "bad_value": (None, "set_value(section, key, guess)\n"),
    "missing_key": (None, "set_value(section, key, guess)\n"),
}

WRONG_NAMES = {
    "latin1": "wrong_drop_undecodable_bytes.sh", "utf16": "wrong_strip_nul_bytes.sh", "bom": "wrong_delete_first_line.sh",
    "dup_section": "wrong_drop_repeated_section.sh", "section_case": "wrong_lowercase_whole_file.sh",
    "dup_key": "wrong_first_occurrence_wins.sh", "percent": "wrong_drop_percent_sign.sh",
    "inline_comment": "wrong_delete_commented_line.sh", "indent": "wrong_delete_indented_line.sh",
    "typo_key": "wrong_default_for_misspelled_key.sh", "bad_value": "wrong_coerce_bad_value.sh",
    "missing_key": "wrong_guess_missing_value.sh",
}

RULES = [
    "A value the app rejects (wrong type, out of range, not one of the allowed words) is set to that key's "
    "**default** from `SCHEMA` in app.py: do not clamp, convert or re-case it.",
    "A missing key is added with its default.",
    "A key that appears twice in a section, or a section that appears twice: the **later** occurrence holds the "
    "intended value (merge a repeated section into one; where both blocks set a key, the later one counts).",
    "A misspelled key, or a section whose name differs from the schema's only in letter case, is renamed to the "
    "name the app expects and keeps its value(s).",
    "A `%` written in a value is meant literally: the app must read it as `%`.",
    "A line indented by mistake, or a value followed by a comment (` ; ...` or ` # ...`), keeps its key and its "
    "value (the comment is dropped).",
    "The file must end up UTF-8 without a byte-order mark, with every character of every value kept "
    "(`Zürich` stays `Zürich`).",
    "Every value that is not part of a problem stays exactly as the app reads it.",
]


def _schema(rng: random.Random, n_sections: int) -> dict[str, dict[str, list]]:
    schema: dict[str, dict[str, list]] = {}
    for section in rng.sample(sorted(SECTIONS), n_sections):
        keys: dict[str, list] = {}
        for key, kind in SECTIONS[section]:
            if kind == "int":
                lo = rng.choice([1, 2, 5, 10, 30])
                hi = lo * rng.choice([8, 16, 50]) + rng.randint(0, 9)
                keys[key] = ["int", [lo, hi], str(rng.randint(lo + 2, hi - 2))]
            elif kind == "bool":
                keys[key] = ["bool", None, rng.choice(["true", "false"])]
            elif kind == "choice":
                keys[key] = ["choice", CHOICES[key], rng.choice(CHOICES[key])]
            else:
                keys[key] = ["text", None, f"{rng.choice(WORDS).title()} default"]
        schema[section] = keys
    return schema


def _valid_other(rng: random.Random, rule: list, avoid: set[str]) -> str:
    """A valid value for ``rule`` that is none of ``avoid``."""
    kind, spec, _ = rule
    for _ in range(1000):
        if kind == "int":
            value = str(rng.randint(spec[0] + 1, spec[1] - 1))
        elif kind == "bool":
            value = rng.choice(["true", "false"])
        elif kind == "choice":
            value = rng.choice(spec)
        else:
            value = f"{rng.choice(WORDS).title()} {rng.choice(NOUNS)} {rng.choice(ACCENTED)}"
        if value not in avoid:
            return value
    raise AssertionError(f"no valid {kind} value outside {avoid}")  # a generator bug


def _typed(rule: list, raw: str) -> object:
    return int(raw) if rule[0] == "int" else (raw == "true") if rule[0] == "bool" else raw


def _typo(rng: random.Random, key: str) -> str:
    i = rng.randrange(0, len(key) - 1)
    return key[:i] + key[i + 1] + key[i] + key[i + 2:] if key[i] != key[i + 1] else key[:i] + key[i + 1:]


def _invalid(rng: random.Random, rule: list) -> tuple[str, str]:
    """(a value the app rejects, what a coercing repair would make of it, which must differ from the default)."""
    kind, spec, default = rule
    if kind == "int":
        shape = rng.randrange(3)
        if shape == 0:
            return str(spec[1] + rng.randint(1, 500)), str(spec[1])  # clamping gives the maximum
        value = _valid_other(rng, rule, {default})
        return (f"{value}.5", value) if shape == 1 else (f"{value}x", value)
    if kind == "bool":
        other = "false" if default == "true" else "true"
        return rng.choice({"true": ["yes", "on", "1", "True"], "false": ["no", "off", "0", "False"]}[other]), other
    value = _valid_other(rng, rule, {default})
    return value.upper(), value


def _fill(template: str, **values: str) -> str:
    """The step with its data bound to variables first (``section, key = "cache", "ttl_s"``)."""
    used = {name.lower(): value for name, value in values.items() if re.search(rf"\b{name.lower()}\b", template)}
    names = ", ".join(used)
    data = ", ".join(json.dumps(value, ensure_ascii=False) for value in used.values())
    return (f"{names} = {data}\n" if used else "") + template.lstrip("\n")


def make(rng: random.Random, difficulty: int) -> Instance:
    schema = _schema(rng, {1: 2, 2: 3, 3: 4}[difficulty])
    n_faults = {1: 1, 2: rng.randint(2, 3), 3: rng.randint(4, 5)}[difficulty]
    pool = [*KEY_FAULTS, *SECTION_FAULTS, rng.choice(ENCODING)]
    kinds = rng.sample(pool, n_faults)
    # the intended configuration: every text value with capitals and an accented letter
    values = {s: {k: _valid_other(rng, rule, {rule[2]}) for k, rule in keys.items()} for s, keys in schema.items()}

    sections = list(schema)
    section_kinds = [k for k in kinds if k in SECTION_FAULTS]
    section_fault = dict(zip(section_kinds, rng.sample(sections, len(section_kinds))))
    rng.shuffle(sections)
    taken = set(section_fault.values())
    free = [(s, k) for s in schema if s not in taken for k in schema[s]]
    rng.shuffle(free)

    # per section: list of file lines; faults rewrite them
    body: dict[str, list[str]] = {s: [f"{k} = {v}" for k, v in values[s].items()] for s in schema}
    expected = {s: {k: _typed(schema[s][k], values[s][k]) for k in schema[s]} for s in schema}
    repaired: list[str] = []
    steps: list[tuple[str, dict[str, str]]] = []  # (kind, placeholders)
    extra_blocks: dict[str, list[str]] = {}
    headers = {s: s for s in schema}

    def pick(kind: str) -> tuple[str, str]:
        for i, (s, k) in enumerate(free):
            rule = schema[s][k]
            fits = {"percent": rule[0] == "text", "inline_comment": rule[0] != "text",
                    "bad_value": rule[0] != "text", "dup_key": rule[0] != "bool",
                    # an indented first line would not continue a value above it
                    "indent": body[s].index(f"{k} = {values[s][k]}") > 0}.get(kind, True)
            if fits:
                return free.pop(i)
        raise AssertionError(f"no key left for {kind}")  # pools are large enough for 5 faults

    # sections first, indentation last (nothing may move the line above an indented one afterwards)
    for kind in sorted(kinds, key=lambda k: (k not in SECTION_FAULTS, k == "indent")):
        if kind in SECTION_FAULTS:
            s = section_fault[kind]
            if kind == "section_case":
                wrong = s.title() if rng.random() < 0.7 else s.upper()
                headers[s] = wrong
                steps.append((kind, {"SECTION": s, "WRONG": wrong}))
                repaired += [f"{s}/{k}" for k in schema[s]]
            else:  # dup_section: the later block repeats one key with the intended value and holds the rest
                keys = list(schema[s])
                cut = rng.randint(1, 2)  # the key both blocks set is an integer (bools have no third value)
                both = keys[cut - 1]
                early = [f"{k} = {values[s][k]}" for k in keys[:cut - 1]]
                early.append(f"{both} = {_valid_other(rng, schema[s][both], {values[s][both], schema[s][both][2]})}")
                body[s] = early
                extra_blocks[s] = [f"{k} = {values[s][k]}" for k in keys[cut - 1:]]
                steps.append((kind, {"SECTION": s}))
                repaired += [f"{s}/{k}" for k in keys[cut - 1:]]
            continue
        if kind in ENCODING:
            steps.append((kind, {}))
            continue
        s, k = pick(kind)
        rule = schema[s][k]
        line = f"{k} = {values[s][k]}"
        at = body[s].index(line)
        fill = {"SECTION": s, "KEY": k, "DEFAULT": rule[2]}
        if kind == "dup_key":
            body[s].insert(at, f"{k} = {_valid_other(rng, rule, {values[s][k], rule[2]})}")
        elif kind == "percent":
            text = f"{rng.randint(2, 99)}% {values[s][k]}"
            values[s][k], expected[s][k] = text, text
            body[s][at] = f"{k} = {text}"
        elif kind == "inline_comment":
            body[s][at] = f"{line}  {rng.choice([';', '#'])} {rng.choice(['was', 'set by', 'ask'])} {rng.choice(WORDS)}"
        elif kind == "indent":
            body[s][at] = " " * rng.choice([2, 4]) + line
        elif kind == "typo_key":
            wrong = _typo(rng, k)
            body[s][at] = f"{wrong} = {values[s][k]}"
            fill["WRONG"] = wrong
        elif kind == "bad_value":
            bad, coerced = _invalid(rng, rule)
            body[s][at] = f"{k} = {bad}"
            expected[s][k] = _typed(rule, rule[2])
            fill["GUESS"] = coerced
        else:  # missing_key
            del body[s][at]
            expected[s][k] = _typed(rule, rule[2])
            fill["GUESS"] = _valid_other(rng, rule, {rule[2]})
        steps.append((kind, fill))
        repaired.append(f"{s}/{k}")

    lines: list[str] = []
    if "bom" not in kinds:
        lines += [f"; {rng.choice(WORDS)} service configuration -- read by /app/app.py", ""]
    for s in sections:
        lines += [f"[{headers[s]}]", *body[s], ""]
    for s, block in extra_blocks.items():
        lines += [f"[{s}]", *block, ""]
    text = "\n".join(lines)
    encoding = next((k for k in kinds if k in ENCODING), None)
    if encoding == "latin1":
        if not any(ch in text for ch in "üöîçÅóíé"):
            raise AssertionError("a Latin-1 file needs an accented letter")  # every text value holds one
        data = text.encode("latin-1")
    elif encoding == "utf16":
        data = text.encode("utf-16")
    elif encoding == "bom":
        data = b"\xef\xbb\xbf" + text.encode()
    else:
        data = text.encode()

    app = render(APP, schema={
        s: {k: (r[0], tuple(r[1]) if r[1] else None, r[2]) for k, r in keys.items()} for s, keys in schema.items()})
    order = {kind: i for i, kind in enumerate([*ENCODING, *SECTION_FAULTS, *KEY_FAULTS])}
    steps.sort(key=lambda step: order[step[0]])  # the encoding first; then sections, then keys

    def script(mistake: str | None) -> str:
        shell, python = [], []
        for kind, fill in steps:
            sh, py = (MISTAKES if kind == mistake else REPAIRS)[kind]
            if sh:
                shell.append(sh)
            if py:
                python.append(_fill(py, **fill))
        return SOLVE_HEAD + "".join(s + "\n" for s in shell) + PY_HEAD + "".join(python) + PY_TAIL

    wrong_kinds = [kind for kind, _ in steps][:3]
    problems = {1: "one problem", 2: f"{n_faults} problems"}.get(difficulty)
    instruction = f"""
`/app/app.py` reads its configuration from `/app/config/app.ini` and refuses it: run
`python3 /app/app.py --check`, which reports the first problem it finds. The file has
{problems or "several problems (how many, and which, is for you to find out)"}. Repair `/app/config/app.ini`
(do not modify app.py) so that `python3 /app/app.py --check` prints `config ok`, following these rules:

{chr(10).join(f"- {r}" for r in RULES)}

`python3 /app/app.py --dump` prints every value as the app reads it; the tests compare it, key by key, with
the intended configuration.
"""
    return Instance(
        instruction=instruction,
        files={"app.py": app, "config/app.ini": data},
        solve=script(None),
        wrong={WRONG_NAMES[kind]: script(kind) for kind in wrong_kinds},
        tests=render(TESTS, app=app, app_sha256=hashlib.sha256(app.encode()).hexdigest(), expected=expected,
                     repaired=sorted(set(repaired))),
        answer={"kinds": kinds, "expected": expected},
    )


FAMILY = Family(
    name="ini-repair",
    category="system-administration",
    tags=("config", "ini", "debugging", "encoding"),
    summary="Run a program that rejects its INI config and repair the file: faults drawn per seed (encodings, "
            "repeated sections/keys, interpolation, stray indentation and comments, typos, bad or missing values).",
    make=make,
)
