import grp
import os
import pwd
import stat
from pathlib import Path

import pytest

ACTIVE = {
    "amara": (2101, "Amara Okafor", {"developers", "docker"}, "/bin/bash",
              "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAmara0001 amara@laptop"),
    "bjorn": (2102, "Björn Lund", {"developers"}, "/bin/bash", None),
    "chidi": (2103, "Chidi Anagonye, PhD", {"analysts", "developers"}, "/bin/sh",
              "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIChidi0002 chidi@desk"),
    "dora": (2104, "Dora Márquez", {"analysts"}, "/usr/sbin/nologin",
             "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDora00003 dora@old"),
    "eitan": (2105, "Eitan Levi", {"ops", "docker", "developers"}, "/bin/bash", None),
}
GROUPS = {"developers": 3001, "analysts": 3002, "ops": 3003, "docker": 3004}


def shadow():
    out = {}
    for line in Path("/etc/shadow").read_text().splitlines():
        f = line.split(":")
        out[f[0]] = f[1]
    return out


def supplementary(login):
    return {g.gr_name for g in grp.getgrall() if login in g.gr_mem}


def test_groups_from_csv():
    for name, gid in GROUPS.items():
        assert grp.getgrnam(name).gr_gid == gid


@pytest.mark.parametrize("login", sorted(ACTIVE))
def test_account(login):
    uid, gecos, groups, shell, _ = ACTIVE[login]
    pw = pwd.getpwnam(login)
    assert pw.pw_uid == uid
    assert pw.pw_gid == uid and grp.getgrgid(pw.pw_gid).gr_name == login
    assert pw.pw_gecos == gecos
    assert pw.pw_dir == f"/home/{login}"
    assert pw.pw_shell == shell
    assert supplementary(login) == groups


@pytest.mark.parametrize("login", sorted(ACTIVE))
def test_home_and_keys(login):
    uid, _, _, _, key = ACTIVE[login]
    home = Path(f"/home/{login}")
    st = home.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (uid, uid, 0o750)
    prof = home / ".team_profile"
    assert prof.read_text() == "# team defaults\nexport EDITOR=vim\n" and prof.stat().st_uid == uid
    ak = home / ".ssh" / "authorized_keys"
    if key is None:
        assert not ak.exists()
    else:
        assert ak.read_text() == key + "\n"
        assert stat.S_IMODE(ak.stat().st_mode) == 0o600 and ak.stat().st_uid == uid
        sshd = home / ".ssh"
        assert stat.S_IMODE(sshd.stat().st_mode) == 0o700 and sshd.stat().st_uid == uid


def test_password_states():
    sh = shadow()
    for login in ["amara", "bjorn", "chidi", "eitan"]:
        assert sh[login] == "*", login
    assert sh["dora"].startswith("!")


def test_removed_account():
    with pytest.raises(KeyError):
        pwd.getpwnam("oldsvc")
    with pytest.raises(KeyError):
        grp.getgrnam("oldsvc")
    assert not os.path.exists("/home/oldsvc")
    assert 2090 not in {p.pw_uid for p in pwd.getpwall()}
