import csv
import grp
import os
import pwd
import shutil
import subprocess


def sh(*a):
    subprocess.run(a, check=True)


for row in csv.DictReader(open("/app/groups.csv")):
    try:
        g = grp.getgrnam(row["group"])
        if g.gr_gid != int(row["gid"]):
            sh("groupmod", "-g", row["gid"], row["group"])
    except KeyError:
        sh("groupadd", "-g", row["gid"], row["group"])

for r in csv.DictReader(open("/app/people.csv", encoding="utf-8")):
    login, uid = r["login"], r["uid"]
    exists = True
    try:
        pwd.getpwnam(login)
    except KeyError:
        exists = False
    if r["status"] == "removed":
        if exists:
            sh("userdel", "-r", login)
        try:
            grp.getgrnam(login)
            sh("groupdel", login)
        except KeyError:
            pass
        shutil.rmtree(f"/home/{login}", ignore_errors=True)
        continue
    shell = r["shell"] or "/bin/bash"
    if r["status"] == "disabled":
        shell = "/usr/sbin/nologin"
    groups = ",".join(g for g in r["groups"].split(";") if g)
    try:
        grp.getgrnam(login)
    except KeyError:
        sh("groupadd", "-g", uid, login)
    home = f"/home/{login}"
    if exists:
        sh("usermod", "-u", uid, "-g", login, "-c", r["full_name"], "-d", home, "-s", shell, "-G", groups, login)
    else:
        sh("useradd", "-m", "-k", "/etc/skel", "-u", uid, "-g", login, "-c", r["full_name"], "-d", home,
           "-s", shell, "-G", groups, login)
    os.chmod(home, 0o750)
    ssh = os.path.join(home, ".ssh")
    ak = os.path.join(ssh, "authorized_keys")
    if r["ssh_key"]:
        os.makedirs(ssh, exist_ok=True)
        with open(ak, "w") as fh:
            fh.write(r["ssh_key"] + "\n")
        os.chmod(ssh, 0o700)
        os.chmod(ak, 0o600)
        sh("chown", "-R", f"{login}:{login}", ssh)
    elif os.path.exists(ak):
        os.remove(ak)
    sh("usermod", "-p", "*", login)
    if r["status"] == "disabled":
        sh("usermod", "-L", login)
