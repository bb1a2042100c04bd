import os
import subprocess
from pathlib import Path

import pytest

TOOL = "/app/sysctl-merge"
EXPECTED_IMAGE = """kernel.panic = 10
kernel.pid_max = 65536
net.core.somaxconn = 1024
net.ipv4.conf.all.rp_filter = 2
net.ipv4.ip_forward = 1
net.ipv6.conf.all.forwarding = 1
vm.dirty_ratio = 15
vm.swappiness = 10
"""


def run(root):
    r = subprocess.run([TOOL, str(root)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_saved_result():
    assert Path("/app/effective.conf").read_text() == EXPECTED_IMAGE


def test_tool_on_image_tree():
    assert run("/app/sysroot") == EXPECTED_IMAGE


@pytest.fixture
def root(tmp_path):
    for d in ["etc/sysctl.d", "run/sysctl.d", "usr/lib/sysctl.d"]:
        (tmp_path / d).mkdir(parents=True)
    return tmp_path


def test_order_is_by_file_name_not_directory(root):
    (root / "usr/lib/sysctl.d/20-a.conf").write_text("x.y = 1\n")
    (root / "etc/sysctl.d/10-b.conf").write_text("x.y = 2\nz = 9\n")
    (root / "run/sysctl.d/15-c.conf").write_text("z = 8\n")
    assert run(root) == "x.y = 1\nz = 8\n"


def test_overrides_and_masking(root):
    (root / "usr/lib/sysctl.d/50-m.conf").write_text("masked.key = 1\n")
    os.symlink("/dev/null", root / "etc/sysctl.d/50-m.conf")
    (root / "usr/lib/sysctl.d/60-r.conf").write_text("from = usrlib\nonly.usr = yes\n")
    (root / "run/sysctl.d/60-r.conf").write_text("from = run\n")
    (root / "usr/lib/sysctl.d/70-e.conf").write_text("from = usr70\n")
    (root / "etc/sysctl.d/70-e.conf").write_text("from = etc70\n")
    assert run(root) == "from = etc70\n"


def test_parsing_details(root):
    (root / "etc/sysctl.d/10-p.conf").write_text(
        "# comment\n   ; another\n\n-kernel/core_pattern =   |/usr/bin/cat %p %e  \n net.a.b=c\n")
    (root / "etc/sysctl.d/notes.txt").write_text("ignored.key = 1\n")
    (root / "etc/sysctl.d/20-q.conf.disabled").write_text("ignored.two = 1\n")
    (root / "etc/sysctl.conf").write_text("net/a/b = d\n")
    assert run(root) == "kernel.core_pattern = |/usr/bin/cat %p %e\nnet.a.b = d\n"
