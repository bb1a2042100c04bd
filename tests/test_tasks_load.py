"""Task loading: both formats, and malformed tasks with errors that name file, field and fix."""

from __future__ import annotations

import dataclasses

import pytest

from conftest import EXAMPLES, write_task
from termrl.errors import TaskError
from termrl.tasks import load_task, load_tasks


def test_examples_load_as_immutable_records():
    report = load_tasks([EXAMPLES])
    assert report.errors == []
    assert len(report.tasks) >= 6
    formats = {t.format for t in report.tasks}
    assert formats == {"harbor", "tb1"}
    task = report.tasks[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        task.name = "changed"  # type: ignore[misc]
    for t in report.tasks:
        assert t.instruction and t.has_solution and t.test_script.is_file()
        if t.format == "harbor":  # termrl's own Harbor tasks always declare it
            assert t.environment.allow_internet is False


def test_harbor_fields_are_read(tmp_path):
    task = write_task(tmp_path, "fields", toml_extra='cpus = 2\ndocker_image = "ignored-when-dockerfile"\n')
    (task / "task.toml").write_text((task / "task.toml").read_text().replace('difficulty = "easy"',
                                    'difficulty = "hard"\ntags = ["a", "b"]'))
    t = load_task(task)
    assert t.metadata.difficulty == "hard" and t.metadata.tags == ("a", "b")
    assert t.environment.cpus == 2 and t.environment.memory_mb == 512
    assert t.agent_timeout_sec == 60 and t.environment.allow_internet is False


def test_old_memory_spelling(tmp_path):
    task = write_task(tmp_path, "mem")
    text = (task / "task.toml").read_text().replace("memory_mb = 512", 'memory = "1G"')
    (task / "task.toml").write_text(text)
    assert load_task(task).environment.memory_mb == 1024


def test_tb1_task_loads():
    t = load_task(EXAMPLES / "tb1-reverse-lines")
    assert t.format == "tb1" and t.test_script.name == "run-tests.sh"
    assert t.solution_script and t.verifier_timeout_sec > 0


def _break(task, kind):
    toml = task / "task.toml"
    if kind == "missing-instruction":
        (task / "instruction.md").unlink()
    elif kind == "empty-instruction":
        (task / "instruction.md").write_text("  \n")
    elif kind == "bad-toml":
        toml.write_text("[agent\ntimeout_sec = 1")
    elif kind == "timeout-not-number":
        toml.write_text(toml.read_text().replace("[agent]\ntimeout_sec = 60", '[agent]\ntimeout_sec = "soon"'))
    elif kind == "negative-timeout":
        toml.write_text(toml.read_text().replace("[verifier]\ntimeout_sec = 60", "[verifier]\ntimeout_sec = -5"))
    elif kind == "bad-difficulty":
        toml.write_text(toml.read_text().replace('"easy"', '"impossible"'))
    elif kind == "internet-not-bool":
        toml.write_text(toml.read_text().replace("allow_internet = false", 'allow_internet = "no"'))
    elif kind == "missing-dockerfile":
        (task / "environment" / "Dockerfile").unlink()
    elif kind == "missing-test-sh":
        (task / "tests" / "test.sh").unlink()
    elif kind == "bad-memory":
        toml.write_text(toml.read_text().replace("memory_mb = 512", 'memory = "lots"'))
    elif kind == "not-a-task":
        (task / "task.toml").unlink()
    elif kind == "tags-not-list":
        toml.write_text(toml.read_text().replace('category = "test"', 'category = "test"\ntags = "x"'))


MALFORMED = {
    # kind: (file the error names, field it names or None, words of the fix)
    "missing-instruction": ("instruction.md", None, "write the task"),
    "empty-instruction": ("instruction.md", None, "write the task"),
    "bad-toml": ("task.toml", None, "fix the syntax"),
    "timeout-not-number": ("task.toml", "[agent] timeout_sec", "write a number"),
    "negative-timeout": ("task.toml", "[verifier] timeout_sec", "above 0"),
    "bad-difficulty": ("task.toml", "[metadata] difficulty", "use one of"),
    "internet-not-bool": ("task.toml", "[environment] allow_internet", "true or false"),
    "missing-dockerfile": ("Dockerfile", None, "add environment/Dockerfile"),
    "missing-test-sh": ("test.sh", None, "add tests/test.sh"),
    "bad-memory": ("task.toml", "[environment] memory", "memory_mb"),
    "not-a-task": ("malformed", None, "add task.toml"),
    "tags-not-list": ("task.toml", "[metadata] tags", "list of strings"),
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_malformed_task_error_names_file_field_and_fix(tmp_path, kind):
    task = write_task(tmp_path, "malformed")
    _break(task, kind)
    file, field, fix = MALFORMED[kind]
    with pytest.raises(TaskError) as info:
        load_task(task)
    message = str(info.value)
    assert file in message
    if field:
        assert field in message and info.value.field == field
    assert fix in message and "fix:" in message


def test_malformed_tb1_solution_yaml(tmp_path):
    task = tmp_path / "tb1"
    task.mkdir()
    (task / "task.yaml").write_text("instruction: do it\ndifficulty: easy\n")
    (task / "Dockerfile").write_text("FROM termrl/base:bookworm\n")
    (task / "run-tests.sh").write_text("true\n")
    (task / "solution.yaml").write_text("- command: echo hi\n- nocommand: 1\n")
    with pytest.raises(TaskError, match=r"solution.yaml: \[1\].command.*fix:"):
        load_task(task)
    (task / "task.yaml").write_text("instruction: [unclosed\n")
    with pytest.raises(TaskError, match="task.yaml.*invalid YAML"):
        load_task(task)


def test_batch_goes_on_past_bad_tasks(tmp_path):
    for name in ("good-1", "bad", "good-2"):
        write_task(tmp_path, name)
    (tmp_path / "bad" / "instruction.md").unlink()
    report = load_tasks([tmp_path])
    assert [t.name for t in report.tasks] == ["good-1", "good-2"]
    assert len(report.errors) == 1 and report.errors[0].task_dir.name == "bad"


def test_missing_path_is_a_task_error(tmp_path):
    report = load_tasks([tmp_path / "nope"])
    assert report.tasks == [] and "not a directory" in str(report.errors[0])
