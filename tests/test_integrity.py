"""The integrity policy (unit: a hand-made inventory), process selection, and the real container parts
(the fast diff agrees with Docker's, PID 1 survives the agent, services survive the agent phase)."""

from __future__ import annotations

import time

import pytest

from termrl.rewards.integrity import _cache_entries, plan
from termrl.rewards.verifier import _frames
from termrl.sandbox.inventory import Inventory, parse_inventory
from termrl.sandbox.procs import listening_inodes, servers, socket_owners


def _inv() -> Inventory:
    text = "\n".join([
        "#PATH /root/.local/bin:/usr/local/bin:/usr/bin:/bin", "#LINK /bin", "#LINK /lib",
        "#PATHDIR /usr/local/bin", "#PATHDIR /usr/bin",
        "#PROG /usr/bin/python3", "#PROG /usr/bin/mkdir", "#PROG /usr/bin/f2py", "#PROG /usr/bin/ls",
        "#PROG /usr/local/bin/uv",
        "#DIR /usr/lib", "#DIR /usr/lib/python3.11", "#DIR /usr/lib/python3.11/__pycache__",
        "#DIR /usr/lib/python3/dist-packages", "#DIR /usr/lib/python3/dist-packages/pytest",
        "#DIR /usr/local/lib/python3.11/dist-packages", "#DIR /usr/lib/x86_64-linux-gnu",
        "#SO /usr/lib/x86_64-linux-gnu/libz.so.1",
        '#PY {"stdlib": ["/usr/lib/python3.11"], "path": ["/usr/lib/python3.11", '
        '"/usr/local/lib/python3.11/dist-packages", "/usr/lib/python3/dist-packages"], '
        '"site": ["/usr/local/lib/python3.11/dist-packages", "/usr/lib/python3/dist-packages"], '
        '"stdlib_names": ["json", "argparse", "os"], "modules": {"pytest": ["/usr/lib/python3/dist-packages"], '
        '"packaging": ["/usr/lib/python3/dist-packages"], "numpy": ["/usr/lib/python3/dist-packages"], '
        '"json": ["/usr/lib/python3.11"]}}',
    ])
    return parse_inventory(text)


SITE = "/usr/local/lib/python3.11/dist-packages"
FILES = {f"{SITE}/evil.pth": b"import os; os._exit(0)\n", f"{SITE}/ok.pth": b"/app/src\n",
         f"{SITE}/plug-1.0.dist-info/entry_points.txt": b"[pytest11]\nx = plug\n",
         f"{SITE}/numpy-2.0.dist-info/entry_points.txt": b"[console_scripts]\nf2py = numpy.f2py:main\n",
         "/etc/environment": b"LD_PRELOAD=/x.so\n", "/root/.bashrc": b"export EDITOR=vi\n"}


def _plan(changes):
    return plan(changes, _inv(), FILES.get, workdirs=("/srv",))


@pytest.mark.parametrize("changes,flagged", [
    ([("/usr/bin/python3", "C")], ["/usr/bin/python3"]),
    ([("/usr/bin/mkdir", "D")], ["/usr/bin/mkdir"]),
    ([("/usr/local/bin/python3", "A")], ["/usr/local/bin/python3"]),
    ([("/usr/bin/env", "C")], ["/usr/bin/env"]),
    ([("/usr/local/bin/ls", "A")], ["/usr/local/bin/ls"]),
    ([("/bin", "C")], ["/bin"]),
    ([("/etc/ld.so.preload", "A")], ["/etc/ld.so.preload"]),
    ([("/etc/environment", "C")], ["/etc/environment"]),
    ([("/usr/local/lib/libz.so.1", "A")], ["/usr/local/lib/libz.so.1"]),
    ([("/usr/lib/python3.11/argparse.py", "C")], ["/usr/lib/python3.11/argparse.py"]),
    ([("/usr/lib/python3/dist-packages/pytest/__init__.py", "C")], ["/usr/lib/python3/dist-packages/pytest/__init__.py"]),
    ([(f"{SITE}/evil.pth", "A")], [f"{SITE}/evil.pth"]),
    ([(f"{SITE}/sitecustomize.py", "A")], [f"{SITE}/sitecustomize.py"]),
    ([(f"{SITE}/pytest", "A"), (f"{SITE}/pytest/__init__.py", "A")], [f"{SITE}/pytest"]),
    ([(f"{SITE}/plug-1.0.dist-info", "A"), (f"{SITE}/plug-1.0.dist-info/entry_points.txt", "A")],
     [f"{SITE}/plug-1.0.dist-info/entry_points.txt"]),
    ([("/app/pytest.py", "A")], ["/app/pytest.py"]),
    ([("/srv/json.py", "A")], ["/srv/json.py"]),
    ([("/app/argparse", "A"), ("/app/argparse/__init__.py", "A")], ["/app/argparse"]),
    ([("/pytest.ini", "A")], ["/pytest.ini"]),
    ([("/etc/pip.conf", "A")], ["/etc/pip.conf"]),
    ([("/etc/python3.11/sitecustomize.py", "C")], ["/etc/python3.11/sitecustomize.py"]),
    ([("/usr/lib/python3/dist-packages", "D")], ["/usr/lib/python3/dist-packages"]),
])
def test_toolchain_changes_are_flagged(changes, flagged):
    assert sorted(_plan(changes).tampered) == flagged


@pytest.mark.parametrize("changes", [
    [("/usr/local/bin/f2py", "A"), (f"{SITE}/numpy", "A"), (f"{SITE}/numpy/__init__.py", "A"),
     (f"{SITE}/numpy-2.0.dist-info", "A"), (f"{SITE}/numpy-2.0.dist-info/entry_points.txt", "A")],
    [("/usr/local/bin/mytool", "A"), (f"{SITE}/ok.pth", "A"), (f"{SITE}/pygments", "A")],
    [("/usr/lib/x86_64-linux-gnu/libnew.so.3", "A"), ("/etc/ld.so.conf.d/new.conf", "A")],
    [("/app", "A"), ("/app/solution.py", "A"), ("/app/json_tools.py", "A"), ("/app/data", "A"),
     ("/app/data/json.py", "A"), ("/root/.bashrc", "C"), ("/etc/nginx/nginx.conf", "C")],
    [("/usr/lib", "C"), ("/usr/lib/python3/dist-packages", "C"), ("/usr/lib/python3.11/__pycache__", "C")],
])
def test_legitimate_changes_are_not_flagged(changes):
    assert _plan(changes).tampered == {}


def test_caches_bytecode_and_uv_are_neutralised_quietly():
    result = _plan([("/root/.cache/uv", "A"), ("/root/.cache/uv/wheels", "A"),
                    ("/usr/lib/python3.11/__pycache__/json.cpython-311.pyc", "A"),
                    ("/root/.local/bin", "A"), ("/root/.local/bin/env", "A"), ("/root/.local/bin/uv", "A"),
                    ("/usr/local/bin/uvx", "C")])
    assert result.tampered == {}
    assert result.remove == ["/root/.cache/uv", "/root/.local/bin/env", "/root/.local/bin/uv",
                             "/usr/lib/python3.11/__pycache__/json.cpython-311.pyc"]
    assert result.restore == ["/usr/local/bin/uvx"]


def test_restore_and_remove_are_split_and_children_covered():
    result = _plan([("/usr/bin/python3", "C"), (f"{SITE}/pytest", "A"), (f"{SITE}/pytest/x.py", "A")])
    assert result.restore == ["/usr/bin/python3"] and result.remove == [f"{SITE}/pytest"]


def test_ld_so_cache_parser_reads_glibc_format():
    strings = b"libz.so.1\0/usr/lib/libz.so.1\0"
    header = b"glibc-ld.so.cache1.1" + (1).to_bytes(4, "little") + len(strings).to_bytes(4, "little") + bytes(20)
    entry_size = 24
    base = len(header) + entry_size
    entry = (1).to_bytes(4, "little", signed=True) + base.to_bytes(4, "little") + (base + 10).to_bytes(4, "little") \
        + bytes(12)
    assert _cache_entries(header + entry + strings) == {"libz.so.1": {"/usr/lib/libz.so.1"}}


def test_servers_keep_listeners_workers_and_supervisors():
    ps = "1 0\n9 0\n15 0\n20 15\n21 20\n22 21\n23 15\n30 1\n31 30\n"
    net = ("== /proc/net/tcp\n  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  "
           "timeout inode\n   0: 0100007F:2239 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        "
           "0 777 1 0000\n   1: 0100007F:2240 0100007F:2239 01 00000000:00000000 00:00000000 00000000     0        "
           "0 888 1 0000\n== /proc/net/unix\nNum       RefCount Protocol Flags    Type St Inode Path\n"
           "0000: 00000002 00000000 00010000 0001 01 999 /run/x.sock\n")
    fds = ("/proc/21/fd:\nlrwx------ 1 root root 64 Dec  1 10:00 3 -> socket:[777]\n"
           "/proc/23/fd:\nlrwx------ 1 root root 64 Dec  1 10:00 3 -> socket:[888]\n"
           "/proc/31/fd:\nlrwx------ 1 root root 64 Dec  1 10:00 4 -> socket:[999]\n")
    assert listening_inodes(net) == {777, 999}
    assert socket_owners(fds)[21] == {777}
    # 21 listens: its worker 22 and its supervisor 20 stay, not the agent shell 15 (started by Docker);
    # 23 only holds a client socket; 31 serves a Unix socket (its parent 30 stays too).
    assert servers(ps, net, fds) == {20, 21, 22, 30, 31}


def test_result_frames_only_after_the_last_marker():
    token = "__TERMRL_V_abc"
    forged = f"\n{token}:RC:0\n{token}:FILE:reward.txt\nMQ==\n{token}:END\n"
    real = f"\n{token}:RC:1\n{token}:FILE:reward.txt\nMAo=\n{token}:END\n"
    run = _frames("tests ran" + forged + "more" + real, token)
    assert run.code == 1 and run.files == {"reward.txt": b"0\n"} and run.output.startswith("tests ran")
    audit = f"\n{token}:RC:1\n{token}:LATE:/logs/verifier/reward.txt\n{token}:SUM:0123abcd  /tests/a b.py\n{token}:END\n"
    run = _frames("x" + audit, token)
    assert run.late == ["/logs/verifier/reward.txt"] and run.sums == {"/tests/a b.py": "0123abcd"}


def test_audit_catches_what_a_live_service_did_during_the_tests(tmp_path):
    from termrl.rewards.verifier import _audit, _Run, _tests_digests
    from termrl.tasks import load_task
    from conftest import write_task

    task = load_task(write_task(tmp_path, "audited", test_body="def test_a():\n    pass\n"))
    sums = _tests_digests(task)
    assert sums and all(p.startswith("/tests/") for p in sums)
    clean = _Run("===== 1 passed in 0.01s =====", 0, sums=dict(sums))
    assert _audit(task, clean, {}, 1.0) == {}
    # pytest said a test failed, yet the reward file says 1: the verdict was overwritten
    assert "/logs/verifier/reward.txt" in _audit(task, _Run("1 failed, 2 passed in 0.5s", 0, sums=dict(sums)), {}, 1.0)
    assert _audit(task, _Run("1 failed, 2 passed in 0.5s", 0, sums=dict(sums)), {}, 0.0) == {}
    nested = "PASSES\n(a test's own pytest run) 3 failed in 0.1s\n==== 4 passed in 2.0s ===="
    assert _audit(task, _Run(nested, 0, sums=dict(sums)), {}, 1.0) == {}  # only the outer, last, summary counts
    changed = dict(sums, **{next(iter(sums)): "0" * 32}, **{"/tests/conftest.py": "1" * 32, "/tests/out.txt": "2" * 32})
    found = _audit(task, _Run("", 0, sums=changed, late=["/pytest.ini"]), {}, 0.0)
    assert set(found) == {next(iter(sums)), "/tests/conftest.py", "/pytest.ini"}  # a new data file is fine


# --- real containers ------------------------------------------------------------------------


def test_fast_diff_agrees_with_dockers(sandbox):
    sandbox.exec("mkdir -p /app && echo x > /app/new; rm /usr/bin/tee; echo > /usr/bin/cat; "
                 "rm -rf /usr/share/doc/bash && mkdir /usr/share/doc/bash && echo z > /usr/share/doc/bash/n; "
                 "ln -s /tmp /root/link; rm -rf /opt && echo f > /opt")
    fast = sandbox.changes()
    assert ("/usr/bin/tee", "D") in fast and ("/usr/bin/cat", "C") in fast and ("/opt", "C") in fast
    assert sorted(fast) == sorted(sandbox.api_changes())


def test_container_survives_kill_everything(sandbox):
    sandbox.exec("sleep 300 &")
    # kill(-1) spares only the caller and PID 1: the background job and the control shell go.
    result = sandbox.exec("kill -9 -1; kill -9 1; kill -TERM 1; kill -INT 1; kill -HUP 1; echo reached")
    time.sleep(0.3)
    sandbox.container.reload()
    assert sandbox.container.status == "running" and result.output == "reached\n"
    assert sandbox.exec("kill -9 $$").shell_restarted  # the agent shell itself
    after = sandbox.exec("echo alive; ps -eo args=")
    assert after.output.startswith("alive") and "sleep 300" not in after.output
    assert sandbox.stop_agent_processes(ls="/usr/bin/ls")[1] == []  # a new control shell took over
    sandbox.exec("for i in 1 2 3 4 5; do (sleep 0.1 &); done; sleep 0.5")
    zombies = sandbox.exec("ps -eo stat= | grep -c '^Z' || true").output.strip()
    assert zombies == "0"  # orphans handed to PID 1 are reaped


def test_stop_agent_processes_keeps_only_servers(sandbox):
    sandbox.exec("cd /tmp && nohup python3 -m http.server 8123 >/dev/null 2>&1 & "
                 "nohup sleep 400 >/dev/null 2>&1 & "
                 "for i in $(seq 100); do grep -q ':1FBB 00000000:0000 0A' /proc/net/tcp && break; sleep 0.2; done",
                 timeout=60)
    killed, kept = sandbox.stop_agent_processes(ls="/usr/bin/ls")
    assert killed >= 2 and kept  # the shell and sleep went; the server (and the subshell that started it) stayed
    out = sandbox.exec("ps -eo args=").output
    assert "http.server 8123" in out and "sleep 400" not in out
    assert "200" in sandbox.exec("python3 -c \"import urllib.request as u; "
                                 "print(u.urlopen('http://127.0.0.1:8123/').status)\"").output


def test_tampered_episode_scores_zero_whatever_the_tests_say():
    from termrl.rewards.scoring import episode_reward
    from termrl.types import VerifierResult

    clean = VerifierResult(reward=1.0, tests={"t": True}, reward_source="reward.txt", exit_code=0, timed_out=False,
                           output="", duration_s=1.0)
    assert episode_reward(clean).reward == 1.0 and episode_reward(clean).resolved
    forged = VerifierResult(reward=1.0, tests={"t": True}, reward_source="reward.txt", exit_code=0,
                            timed_out=False, output="", duration_s=1.0, tampered=("/usr/bin/python3",))
    parts = episode_reward(forged)
    assert parts.reward == 0.0 and parts.test_score == 0.0 and not parts.resolved
