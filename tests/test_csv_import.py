"""`termrl tasks import-csv`: a CSV in the seed dataset's format (our own rows) becomes Harbor tasks that
build, validate without a reference solution, and score by their test weights in real containers."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from termrl.rewards.scoring import test_score as score_tests
from termrl.tasks import load_task
from termrl.tasks.csv_import import COLUMNS
from termrl.types import VerifierResult

TERMRL = [str(Path(sys.executable).with_name("termrl"))]

TESTS = '''from pathlib import Path


def test_count_file_exists():
    assert Path("/app/count.txt").is_file()


def test_count_correct():
    assert Path("/app/count.txt").read_text().strip() == "4"


def test_top_word():
    assert Path("/app/top.txt").read_text().strip() == "apple"
'''

GOOD = {
    "task_id": "word-count", "difficulty": "easy", "title": "Count words", "use_case_category": "text processing",
    "prompt": "Count the words in /app/words.txt: write the total to /app/count.txt and the most frequent word "
              "to /app/top.txt.",
    "category": "file-operations", "tags": "text|counting",
    "dockerfile": "FROM ghcr.io/laude-institute/t-bench/ubuntu-24-04:latest\nWORKDIR /app\n"
                  "COPY data/words.txt /app/words.txt\n",
    "test_functions": TESTS,
    "test_weights": json.dumps({"count_file_exists": 0.2, "count_correct": 0.5, "top_word": 0.3}),
    "additional_files": json.dumps({"data/words.txt": "apple banana apple\ncherry\n"}),
    "created_at": "2025-07-01 10:00:00", "updated_at": "2025-07-02 10:00:00",
}


def _write_csv(path: Path, rows: list[dict]) -> Path:
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(COLUMNS))
        writer.writeheader()
        writer.writerows(rows)
    return path


def termrl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*TERMRL, *args], capture_output=True, text=True, timeout=900,
                          env={**os.environ, "COLUMNS": "250"})


@pytest.fixture
def imported(tmp_path, docker_client):
    rows = [GOOD,
            {**GOOD, "task_id": "bad-weights", "test_weights": "{count_correct: 1"},
            {**GOOD, "task_id": "escape", "additional_files": json.dumps({"../outside.txt": "x"})},
            {**GOOD, "task_id": "no-tests", "test_functions": "def helper():\n    pass\n"}]
    proc = termrl("tasks", "import-csv", str(_write_csv(tmp_path / "tasks.csv", rows)), "--out", str(tmp_path / "out"))
    yield tmp_path / "out", proc
    for image in docker_client.images.list(filters={"label": "termrl.task=word-count"}):  # our throwaway task's
        docker_client.images.remove(image.id, force=True)


def test_import_writes_harbor_tasks_and_names_bad_rows(imported):
    out, proc = imported
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "imported 1 task(s)" in proc.stdout and "1 without a reference solution" in proc.stdout
    errors = " ".join(proc.stderr.split())
    assert "row 2 (task_id 'bad-weights'), column test_weights: not valid JSON" in errors
    assert "row 3 (task_id 'escape'), column additional_files: path '../outside.txt' leaves the build context" in errors
    assert "row 4 (task_id 'no-tests'), column test_functions: defines no test_* function" in errors
    assert sorted(p.name for p in out.iterdir()) == ["word-count"]  # nothing half-written for the bad rows
    task = load_task(out / "word-count")
    assert task.format == "harbor" and not task.has_solution
    assert task.instruction.startswith("Count the words in /app/words.txt")
    assert (task.metadata.difficulty, task.metadata.category, task.metadata.tags) == ("easy", "file-operations",
                                                                                      ("text", "counting"))
    assert (out / "word-count" / "environment" / "data" / "words.txt").read_text() == "apple banana apple\ncherry\n"
    assert json.loads((task.tests_dir / "test_weights.json").read_text())["count_correct"] == 0.5
    assert 'title = "Count words"' in (out / "word-count" / "task.toml").read_text()


def test_a_csv_without_the_columns_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("id,text\n1,hello\n")
    proc = termrl("tasks", "import-csv", str(bad), "--out", str(tmp_path / "out"))
    assert proc.returncode == 2
    assert "missing column(s) task_id, prompt, dockerfile, test_functions" in " ".join(proc.stderr.split())


def test_weighted_test_score():
    def verifier(tests, reward):
        return VerifierResult(reward, tests, "junit", 0, False, "", 0.0)

    weights = {"count_file_exists": 0.2, "count_correct": 0.5, "top_word": 0.3}
    v = verifier({"test_count_file_exists": True, "test_count_correct": True, "test_top_word": False}, 0.7)
    assert score_tests(v, weights=weights) == pytest.approx(0.7)
    assert score_tests(v) == pytest.approx(2 / 3)  # no weights: each test the same
    # a nop-passing test leaves partial credit; the others keep their relative weights
    assert score_tests(v, {"test_count_file_exists"}, weights) == pytest.approx(0.5 / 0.8)
    # every weighted test passed but the script's reward says otherwise: one more failed test of mean weight
    v_all = verifier({"test_count_file_exists": True, "test_count_correct": True, "test_top_word": True}, 0.5)
    assert score_tests(v_all, weights=weights) == pytest.approx(1.0 / (1.0 + 1.0 / 3))
    # parametrised test names find their weight
    assert score_tests(verifier({"test_top_word[a]": True, "test_count_correct": False}, 0.0),
                       weights=weights) == pytest.approx(0.3 / 0.8)


def test_imported_task_validates_and_scores_by_weight(imported, docker_provider):
    out, _ = imported
    proc = termrl("tasks", "validate", "--json", str(out / "word-count"))
    result = json.loads(proc.stdout.splitlines()[-1])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert result["valid"] and result["has_solution"] is False and result["oracle_reward"] is None
    assert result["nop_reward"] == 0.0 and result["n_tests"] == 3 and result["error"] is None

    from termrl.agent.loop import AgentConfig, TermAgent
    from termrl.policies.scripted import ScriptedPolicy
    from termrl.rollout.episode import run_episode

    # The count is right, the top word is not: 0.2 + 0.5 of the weights pass.
    policy = ScriptedPolicy(["```bash\nwc -w < /app/words.txt | tr -d ' ' > /app/count.txt; echo cherry > /app/top.txt\n```",
                             "```bash\nfinish\n```"])
    result = run_episode(load_task(out / "word-count"), TermAgent(policy, AgentConfig(action_format="bash_block")),
                         docker_provider)
    assert result.error is None, result.error
    assert result.tests == {"test_count_file_exists": True, "test_count_correct": True, "test_top_word": False}
    assert result.test_score == pytest.approx(0.7)  # equal weights would give 2/3
    assert result.verifier.reward == pytest.approx(0.7)      # the task's test.sh writes the same weighted reward
    assert not result.resolved
