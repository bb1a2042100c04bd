import hashlib
import subprocess
from pathlib import Path


def login(cmd):
    return subprocess.run(["env", "-i", "HOME=/root", "/bin/bash", "-lc", cmd], capture_output=True, text=True, timeout=30)


def test_report_resolves_and_runs():
    r = login("command -v report")
    assert r.stdout.strip() == "/usr/local/bin/report"
    r = login("report")
    assert r.returncode == 0, r.stderr
    assert "report v2 for plant-7 using /usr/bin/python3" in r.stdout
    assert "retention=45d" in r.stdout


def test_python3_is_system():
    assert login("command -v python3").stdout.strip() == "/usr/bin/python3"
    assert login("python3 -c 'import sys; print(sys.version_info[0])'").stdout.strip() == "3"


def test_legacy_tool_still_available():
    r = login("legacy-tool")
    assert r.returncode == 0 and r.stdout.strip() == "legacy-tool ok"
    assert "/opt/legacy/bin" in login('echo "$PATH"').stdout


# Digests of the files as the image ships them: the task forbids changing them.
PROTECTED = {
    "/usr/local/bin/report": "b07cb5c5490970f301d62e02b36295b472021d0d2e30ccdfec00b54644ca0354",
    "/opt/legacy/bin/legacy-tool": "913016ea7573f0a252d1cb75ae969ab487a05db811d58e05e2aee3d444923490",
    "/opt/legacy/bin/python3": "1be5adfb3596999a4c6a74399357ec6a83c5241f4aeb5af25088d56b9ddeee60",
}


def test_protected_files_unchanged():
    for path, digest in PROTECTED.items():
        assert hashlib.sha256(Path(path).read_bytes()).hexdigest() == digest, f"{path} was modified"


def test_report_reads_the_conf_it_is_given(tmp_path):
    # The report script still works as shipped, on a config the agent never saw.
    site = "site-" + hashlib.sha256(str(tmp_path).encode()).hexdigest()[:8]
    conf = tmp_path / "r.ini"
    conf.write_text(f"[report]\nsite = {site}\nretention_days = 17\n")
    r = subprocess.run(["/usr/bin/python3", "/usr/local/bin/report"], capture_output=True, text=True,
                       env={"REPORT_CONF": str(conf), "PATH": "/usr/bin:/bin"}, timeout=30)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"report v2 for {site} using /usr/bin/python3\nretention=17d\n"
