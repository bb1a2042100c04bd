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


def test_protected_files_unchanged():
    assert "exit 1" in Path("/opt/legacy/bin/python3").read_text()
    assert Path("/opt/legacy/bin/legacy-tool").exists()
    assert "report v2 for" in Path("/usr/local/bin/report").read_text()
    assert "missing.ini" in Path("/usr/local/bin/report").read_text()
