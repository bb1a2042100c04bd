import os
import subprocess
from pathlib import Path

import pytest

TOOL = "/app/sudocheck"

Q1 = [('alice web1 root /bin/bash', 'ALLOW NOPASSWD'), ('bob web1 root /bin/bash', 'DENY'), ('bob db1 root /usr/bin/vim /etc/hosts', 'ALLOW PASSWD'), ('bob web1 root /usr/bin/zsh', 'DENY'), ('bob web1 root /usr/bin/passwd root', 'DENY'), ('bob web1 root /usr/bin/passwd carol', 'ALLOW PASSWD'), ('carol web1 www-data /srv/app/bin/deploy.sh --fast', 'ALLOW NOPASSWD'), ('carol web1 www-data /srv/app/bin/sub/x', 'DENY'), ('carol web2 www-data /usr/bin/git pull', 'ALLOW PASSWD'), ('carol web1 root /usr/bin/systemctl restart nginx', 'ALLOW PASSWD'), ('carol db1 root /usr/bin/systemctl restart nginx', 'DENY'), ('dave web2 www-data /usr/bin/git push origin', 'DENY'), ('dave web1 www-data /usr/bin/git push origin', 'ALLOW PASSWD'), ('erin web1 root /usr/bin/apt-get install curl', 'ALLOW NOPASSWD'), ('erin db1 root /usr/bin/apt-get update', 'DENY'), ('erin web1 root /usr/bin/apt-get update --fix', 'DENY'), ('mallory db1 root /usr/bin/pg_dump', 'DENY'), ('frank db1 root /usr/bin/pg_dump', 'ALLOW PASSWD'), ('frank db1 root /usr/bin/pg_dump mydb', 'DENY'), ('trent web1 root /bin/ls', 'DENY'), ('bob web1 root /usr/bin/journalctl -u nginx', 'ALLOW NOPASSWD'), ('alice db1 postgres /usr/bin/psql', 'ALLOW NOPASSWD'), ('carol web1 deploy /bin/bash', 'DENY'), ('alice web1 root /usr/bin/su', 'DENY'), ('bob web1 root /usr/bin/bash', 'DENY'), ('bob web1 root /usr/local/bin/sh', 'ALLOW PASSWD'), ('bob web1 root /usr/bin/sub/zsh', 'ALLOW PASSWD')]

P2_SUDOERS = r"""
User_Alias STAFF_NOT_CAT = %staff, !cat
Cmnd_Alias VIEW = /usr/bin/less, /usr/bin/cat : EDIT = /usr/bin/vi, /usr/bin/nano
Cmnd_Alias FILES = VIEW, EDIT, !/usr/bin/nano   # nano is not allowed
STAFF_NOT_CAT ALL = (root, backup) FILES, NOPASSWD: /opt/tools/*.sh, \
    (backup) /usr/bin/rsync *
!!ben box = !VIEW
cat ALL = ALL, !!/usr/bin/id
#includedir INCDIR
"""

Q2 = [
    ("ann box root /usr/bin/less /etc/x", "ALLOW PASSWD"),
    ("ann box root /usr/bin/nano /etc/x", "DENY"),
    ("cat box root /usr/bin/less", "ALLOW PASSWD"),
    ("cat box root /usr/bin/id", "ALLOW PASSWD"),
    ("ben box root /usr/bin/less", "DENY"),
    ("ben other root /usr/bin/less", "ALLOW PASSWD"),
    ("ann box backup /opt/tools/clean.sh", "ALLOW NOPASSWD"),
    ("ann box root /opt/tools/sub/x.sh", "DENY"),
    ("ann box backup /usr/bin/rsync -a /src /dst", "ALLOW NOPASSWD"),
    ("ann box root /usr/bin/rsync -a", "DENY"),
    ("dan box root /usr/bin/less", "DENY"),
    ("ann box root /usr/bin/vi", "ALLOW PASSWD"),
    ("dan box root /usr/bin/whoami", "ALLOW NOPASSWD"),
    ("dan box root /usr/bin/whoami -u", "DENY"),
    ("eve box root /usr/bin/less", "DENY"),
]


def run(policy, q):
    user, host, runas, *cmd = q.split()
    r = subprocess.run([TOOL, "--policy", str(policy), "--host", host, "--runas", runas, user, *cmd],
                       capture_output=True, text=True, timeout=30)
    return r.returncode, r.stdout.strip()


@pytest.fixture(scope="module")
def p2(tmp_path_factory):
    d = tmp_path_factory.mktemp("p2")
    inc = tmp_path_factory.mktemp("inc")
    (d / "group").write_text("staff:x:50:ann,ben,cat\n")
    (d / "sudoers").write_text(P2_SUDOERS.replace("INCDIR", str(inc)))
    (inc / "10-extra").write_text('dan box = NOPASSWD: /usr/bin/whoami ""\n')
    (inc / "README.md").write_text("eve ALL = ALL\n")
    return d


@pytest.mark.parametrize("q,want", Q1[:9])
def test_given_policy_admins_and_shells(q, want):
    assert run("/app/policy", q)[1] == want


@pytest.mark.parametrize("q,want", Q1[9:18])
def test_given_policy_aliases_hosts_runas(q, want):
    assert run("/app/policy", q)[1] == want


@pytest.mark.parametrize("q,want", Q1[18:])
def test_given_policy_includes_and_globs(q, want):
    assert run("/app/policy", q)[1] == want


@pytest.mark.parametrize("q,want", Q2)
def test_hidden_policy(p2, q, want):
    assert run(p2, q)[1] == want


def test_exit_codes(p2):
    assert run(p2, "ann box root /usr/bin/vi") == (0, "ALLOW PASSWD")
    assert run(p2, "ann box root /usr/bin/nano") == (1, "DENY")


def test_default_policy_dir():
    r = subprocess.run([TOOL, "--host", "web1", "alice", "/bin/bash"], capture_output=True, text=True, timeout=30)
    assert (r.returncode, r.stdout.strip()) == (0, "ALLOW NOPASSWD")
