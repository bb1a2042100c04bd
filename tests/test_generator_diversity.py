"""`termrl tasks generator-stats`: distinct reference-solution programs per family and level."""

from __future__ import annotations

import json

import pytest

from typer.testing import CliRunner

from termrl.cli import app
from termrl.tasks.generators import FAMILIES
from termrl.tasks.generators.diversity import family_diversity, normalise_program, program_digest


def test_data_is_blanked_code_is_kept():
    a = "cd /app/repo\ngit branch 'harbor' $(echo 2637)\nprintf 'x 1\\n' > /app/out/amber.txt\nprintf 'x 2\\n' > /app/out/delta.txt\n"
    b = "cd /app/repo\ngit branch 'fjord-7' $(echo 12)\nprintf 'y 9\\n' > /app/out/cobalt.txt\n"
    assert program_digest(a) == program_digest(b), (normalise_program(a), normalise_program(b))
    # code inside a quoted string is a different program; so is a different step
    fix1 = "sed -i 's/range(n)/range(n + 1)/' lib.py\n"
    fix2 = "sed -i 's/a < b/a <= b/' lib.py\n"
    assert program_digest(fix1) != program_digest(fix2)
    assert program_digest(a) != program_digest(a.replace("git branch", "git tag"))


@pytest.mark.parametrize("family", ["log-report", "git-recover", "py-bugfix", "csv-to-json", "dedup-merge",
                                    "file-sort", "unit-convert", "http-service", "ini-repair", "json-migrate",
                                    "text-extract"])
def test_reworked_families_need_different_programs(family):
    hard = family_diversity(family, 3, seeds=30)
    assert hard.distinct_programs >= 15, hard  # >= 50 per 100 seeds at the hardest level
    easy = family_diversity(family, 1, seeds=30)
    assert easy.distinct_programs > 1


def test_cli_prints_every_family_and_level():
    result = CliRunner().invoke(app, ["tasks", "generator-stats", "--seeds", "2", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert {(r["family"], r["difficulty"]) for r in rows} == {(f, d) for f in FAMILIES for d in (1, 2, 3)}
    assert all(1 <= r["distinct_programs"] <= 2 and r["seeds"] == 2 for r in rows)
    bad = CliRunner().invoke(app, ["tasks", "generator-stats", "--family", "no-such-family"])
    assert bad.exit_code != 0 and "unknown task family" in bad.output
