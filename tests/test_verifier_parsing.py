"""Reading rewards and per-test results (pure functions, no containers)."""

from __future__ import annotations

from termrl.rewards.verifier import _read_reward, parse_ctrf, parse_junit, parse_pytest_summary

JUNIT = b"""<?xml version="1.0"?><testsuites><testsuite name="pytest">
<testcase classname="test_outputs" name="test_ok" time="0.1"/>
<testcase classname="test_outputs" name="test_bad"><failure message="x"/></testcase>
<testcase classname="test_outputs" name="test_err"><error message="x"/></testcase>
<testcase classname="test_outputs" name="test_skip"><skipped message="x"/></testcase>
<testcase classname="test_outputs.TestGroup" name="test_in_class"/>
</testsuite></testsuites>"""


def test_junit_outcomes_and_not_run_counts_as_failed():
    assert parse_junit(JUNIT) == {"test_ok": True, "test_bad": False, "test_err": False, "test_skip": False,
                                  "TestGroup::test_in_class": True}
    assert parse_junit(b"<not xml") == {}


def test_ctrf_outcomes():
    data = (b'{"results": {"tests": [{"name": "test_outputs.py::test_a", "status": "passed"},'
            b'{"name": "test_outputs.py::test_b", "status": "failed"},'
            b'{"name": "test_outputs.py::test_c", "status": "skipped"}]}}')
    assert parse_ctrf(data) == {"test_a": True, "test_b": False, "test_c": False}
    assert parse_ctrf(b"{}") == {}


def test_pytest_summary():
    out = """
=========================== short test summary info ============================
PASSED ../tests/test_outputs.py::test_one
FAILED ../tests/test_outputs.py::test_two - AssertionError: x
ERROR ../tests/test_outputs.py::test_three - fixture
PASSED ../tests/test_outputs.py::test_param[1-2]
"""
    assert parse_pytest_summary(out) == {"test_one": True, "test_two": False, "test_three": False,
                                         "test_param[1-2]": True}


def test_reward_files():
    assert _read_reward({"reward.txt": b"0.75\n"})[:2] == (0.75, "reward.txt")
    assert _read_reward({"reward.txt": b"7"})[0] == 1.0
    value, _, problem = _read_reward({"reward.txt": b"yes"})
    assert value is None and "not a number" in problem
    assert _read_reward({"reward.json": b'{"reward": 0.5}'})[0] == 0.5
    assert _read_reward({"reward.json": b"1"})[0] == 1.0
    value, source, problem = _read_reward({})
    assert value is None and source == "none" and "reward.txt" in problem
