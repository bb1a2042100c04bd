import os
import stat
import subprocess
from pathlib import Path

EXPECTED_REPORT = [
    "/etc/cron.d/userjobs",
    "/etc/sudoers.d/90-temp-access",
    "/home/intern/.ssh/authorized_keys",
    "/opt/report",
    "/opt/tools/bin/ffind",
    "/usr/local/bin/netdiag",
    "/usr/local/bin/whoami-helper",
    "/usr/local/sbin/backup-run.sh",
]


def mode(p):
    return stat.S_IMODE(os.lstat(p).st_mode)


def test_no_unapproved_suid_sgid():
    allow = set(Path("/app/suid_allowlist.txt").read_text().split())
    out = subprocess.run("find / -xdev \\( -perm -4000 -o -perm -2000 \\) -type f 2>/dev/null", shell=True,
                         capture_output=True, text=True).stdout.split()
    assert set(out) == allow, set(out) ^ allow
    assert mode("/usr/local/bin/netdiag") == 0o755
    assert mode("/opt/tools/bin/ffind") == 0o755
    assert mode("/usr/local/bin/whoami-helper") == 0o755
    assert mode("/usr/bin/passwd") & stat.S_ISUID


def test_root_cron_targets_locked_down():
    for p in ["/usr/local/sbin/backup-run.sh", "/opt/report/nightly.sh", "/opt/report", "/opt"]:
        st = os.lstat(p)
        assert st.st_uid == 0 and not (st.st_mode & 0o022), p
    # still runnable
    assert os.access("/usr/local/sbin/backup-run.sh", os.X_OK)
    assert mode("/usr/local/sbin/backup-run.sh") & 0o100


def test_cron_files_and_user_job_untouched():
    for f in os.listdir("/etc/cron.d"):
        st = os.lstat(f"/etc/cron.d/{f}")
        assert st.st_uid == 0 and not (st.st_mode & 0o022), f
    assert "0 * * * * maria /home/maria/tidy.sh" in Path("/etc/cron.d/userjobs").read_text()
    st = os.lstat("/home/maria/tidy.sh")
    assert (mode("/home/maria/tidy.sh"), st.st_uid) == (0o755, os.lstat("/home/maria").st_uid)


def test_sudoers_rules():
    temp = Path("/etc/sudoers.d/90-temp-access").read_text()
    assert "NOPASSWD: ALL" not in temp and "intern" not in temp
    assert "maria ALL=(root) /usr/bin/journalctl" in temp
    assert "# temporary, remove after the migration (2023-11)" in temp
    assert Path("/etc/sudoers.d/10-ops").read_text() == "maria ALL=(root) /usr/bin/systemctl restart nginx\n"


def test_authorized_keys():
    assert Path("/home/intern/.ssh/authorized_keys").read_text().splitlines() == [
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIntern0Laptop intern@laptop"]
    assert Path("/home/maria/.ssh/authorized_keys").read_text().splitlines() == [
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMaria0Desk maria@desk"]


def test_report():
    assert Path("/app/audit_report.txt").read_text().splitlines() == EXPECTED_REPORT
