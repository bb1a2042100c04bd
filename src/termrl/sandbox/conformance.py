"""The conformance suite every Sandbox provider must pass, shipped with the package.

The tests are plain pytest functions that take a ``sandbox_provider`` fixture. To run them on your own
provider, import the suite into a test module and define that fixture::

    # tests/test_my_provider_conformance.py
    import pytest
    from termrl.sandbox.conformance import *  # noqa: F401,F403  (the tests and the conformance_box fixture)

    @pytest.fixture(scope="module")
    def sandbox_provider():
        provider = MyProvider()
        yield provider
        provider.close()

and run ``pytest tests/test_my_provider_conformance.py``. Override the ``sandbox_spec`` fixture the same way
to start a different image; it needs a POSIX shell, bash, coreutils (``timeout``, ``seq``, ``head``), ``ps``
and python3, as ``termrl/base:bookworm`` has. termrl runs this suite on its Docker provider and on the warm
pool (tests/test_sandbox_conformance.py).

The suite checks behaviour an agent sees, not how a provider gets it: no test depends on the init process,
the keeper or the name of a network interface.
"""

from __future__ import annotations

import time

import pytest

from termrl.errors import SandboxError
from termrl.sandbox.base import Sandbox, SandboxSpec

__all__ = [
    "sandbox_spec", "conformance_box", "box",
    "test_implements_protocol", "test_exit_code_and_merged_output", "test_state_persists_between_commands",
    "test_commands_do_not_read_the_protocol_stream", "test_syntax_error_is_reported_not_fatal",
    "test_timeout_kills_whole_process_group_and_shell_survives", "test_builtin_loop_timeout_restarts_shell",
    "test_shell_death_is_reported_and_recovered", "test_output_is_capped_head_and_tail",
    "test_binary_output_does_not_break_the_session", "test_write_read_roundtrip_binary_and_nested",
    "test_read_missing_file_raises", "test_upload_and_download_dir", "test_run_is_a_fresh_process_with_env_and_timeout",
    "test_network_refused_when_not_allowed", "test_network_can_be_given_for_the_verifier",
    "test_kill_all_leaves_only_the_keeper", "test_close_is_idempotent",
]

# Lines of `ps -eo args=` that are the sandbox's own shells or the probe itself, never a leftover.
_OWN = ("sh", "bash --noprofile --norc", "ps -eo args=", "timeout -k")


@pytest.fixture
def sandbox_spec() -> SandboxSpec:
    """The spec every conformance sandbox starts with (override it to test another image)."""
    return SandboxSpec(image="termrl/base:bookworm", output_cap=4000, pids_limit=256, memory_mb=512)


def _command_lines(box: Sandbox) -> list[str]:
    return [line.strip() for line in box.run(["ps", "-eo", "args="]).output.splitlines() if line.strip()]


@pytest.fixture
def conformance_box(sandbox_provider, sandbox_spec):
    """A started sandbox; ``box.baseline`` holds the process command lines it had right after start."""
    sb = sandbox_provider.start(sandbox_spec)
    try:
        sb.baseline = set(_command_lines(sb))  # init, keeper, whatever the provider runs: not the agent's
    except BaseException:
        sb.close()
        raise
    yield sb
    sb.close()


@pytest.fixture
def box(conformance_box):
    return conformance_box


def _processes(box: Sandbox) -> list[str]:
    """Process command lines the sandbox did not have at start, other than its shells and ps itself."""
    return [line for line in _command_lines(box) if line not in box.baseline and not line.startswith(_OWN)]


def _default_route(box: Sandbox) -> bool:
    """Whether the sandbox has a route out (a default route in /proc/net/route), whatever its interfaces' names."""
    rows = box.exec("cat /proc/net/route").output.splitlines()[1:]
    return any(row.split()[1:2] == ["00000000"] for row in rows)


def test_implements_protocol(box):
    assert isinstance(box, Sandbox)


def test_exit_code_and_merged_output(box):
    result = box.exec("echo out; echo err >&2; exit_with() { return $1; }; exit_with 7")
    assert result.exit_code == 7
    assert result.output == "out\nerr\n"
    assert not result.timed_out and not result.shell_restarted


def test_state_persists_between_commands(box):
    box.exec("cd /tmp && export TERMRL_X=42 && mkdir -p d && greet() { echo hi-$1; }")
    result = box.exec("pwd; echo $TERMRL_X; greet you")
    assert result.output.split() == ["/tmp", "42", "hi-you"]


def test_commands_do_not_read_the_protocol_stream(box):
    assert box.exec("cat").output == ""
    assert box.exec("echo still-alive").output == "still-alive\n"


def test_syntax_error_is_reported_not_fatal(box):
    result = box.exec("if then fi (")
    assert result.exit_code != 0 and "syntax error" in result.output
    assert box.exec("echo ok").output == "ok\n"


def test_timeout_kills_whole_process_group_and_shell_survives(box):
    box.exec("cd /srv && export KEEP=yes")
    result = box.exec("sleep 300 & (sleep 301 &) ; sleep 302 | cat", timeout=1.5)
    assert result.timed_out and result.exit_code == 124
    assert not result.shell_restarted
    time.sleep(0.2)
    assert _processes(box) == []
    assert box.exec("pwd; echo $KEEP").output.split() == ["/srv", "yes"]


def test_builtin_loop_timeout_restarts_shell(box):
    result = box.exec("while :; do :; done", timeout=1)
    assert result.timed_out and result.shell_restarted
    assert box.exec("echo back").output == "back\n"


def test_shell_death_is_reported_and_recovered(box):
    box.exec("export GONE=1")
    result = box.exec("echo bye; exit 9")
    assert result.shell_restarted and result.exit_code == 9 and "bye" in result.output
    after = box.exec("echo ${GONE:-unset}")
    assert after.output == "unset\n" and not after.shell_restarted


def test_output_is_capped_head_and_tail(box):
    result = box.exec("seq 1 200000")
    assert result.output_truncated
    assert result.output.startswith("1\n2\n3\n")
    assert result.output.rstrip().endswith("200000")
    assert "bytes of output omitted" in result.output
    assert len(result.output) < 4000 + 200


def test_binary_output_does_not_break_the_session(box):
    result = box.exec("head -c 3000 /dev/urandom; printf '\\x00\\xff\\xfe'")
    assert result.exit_code == 0
    assert box.exec("echo fine").output == "fine\n"


def test_write_read_roundtrip_binary_and_nested(box):
    payload = bytes(range(256)) * 10
    box.write_file("/data/deep/nested/blob.bin", payload)
    assert box.read_file("/data/deep/nested/blob.bin") == payload
    box.write_file("/data/text.txt", "héllo\n")
    assert box.exec("cat /data/text.txt").output == "héllo\n"


def test_read_missing_file_raises(box):
    with pytest.raises(FileNotFoundError):
        box.read_file("/no/such/file")


def test_upload_and_download_dir(box, tmp_path):
    (tmp_path / "src" / "sub").mkdir(parents=True)
    (tmp_path / "src" / "a.txt").write_text("A")
    (tmp_path / "src" / "sub" / "b.sh").write_text("echo B")
    (tmp_path / "src" / "sub" / "b.sh").chmod(0o755)
    box.write_file("/up/stale.txt", "old")
    box.upload_dir(tmp_path / "src", "/up")
    assert box.exec("ls -R /up | tr '\\n' ' '; /up/sub/b.sh").output.split()[-1] == "B"
    assert box.download_dir("/up") == {"a.txt": b"A", "sub/b.sh": b"echo B"}
    assert box.download_dir("/nothing/here") == {}


def test_run_is_a_fresh_process_with_env_and_timeout(box):
    box.exec("cd /tmp; export IN_SHELL=1")
    result = box.run(["sh", "-c", "pwd; echo ${IN_SHELL:-no} $X"], env={"X": "given"}, workdir="/etc")
    assert result.output.split() == ["/etc", "no", "given"]
    slow = box.run(["sh", "-c", "sleep 100"], timeout=1)
    assert slow.timed_out


def test_network_refused_when_not_allowed(box):
    result = box.exec("python3 -c \"import socket; socket.create_connection(('1.1.1.1', 53), timeout=3)\"",
                      timeout=20)
    assert result.exit_code != 0
    assert "unreachable" in result.output.lower() or "error" in result.output.lower()
    assert not _default_route(box)


def test_network_can_be_given_for_the_verifier(box):
    box.set_network(True)
    assert _default_route(box)
    box.set_network(False)
    assert not _default_route(box)


def test_kill_all_leaves_only_the_keeper(box):
    box.exec("(setsid sleep 500 &) ; sleep 501 &")
    assert box.kill_all() >= 2
    time.sleep(0.2)
    assert _processes(box) == []
    result = box.exec("echo fresh")
    assert result.output == "fresh\n" and result.shell_restarted


def test_close_is_idempotent(sandbox_provider, sandbox_spec):
    sb = sandbox_provider.start(sandbox_spec)
    assert sb.exec("echo open").output == "open\n"
    sb.close()
    sb.close()
    with pytest.raises(SandboxError):
        sb.exec("echo closed")
