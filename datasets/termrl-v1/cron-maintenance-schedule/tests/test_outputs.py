import datetime
import os
import pwd
import re
import stat
import subprocess
from pathlib import Path

import pytest

CRON = Path("/etc/cron.d/maintenance")
NAMES = {"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6,
         "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
         "oct": 10, "nov": 11, "dec": 12}


def expand(field, lo, hi):
    out = set()
    for part in field.lower().split(","):
        step = 1
        if "/" in part:
            part, s = part.split("/")
            step = int(s)
        if part == "*":
            a, b = lo, hi
        elif "-" in part:
            a, b = (int(NAMES.get(x, x)) for x in part.split("-"))
        else:
            a = int(NAMES.get(part, part))
            b = hi if step != 1 else a
        out.update(range(a, b + 1, step))
    return out


def parse():
    env, jobs = {}, []
    for line in CRON.read_text().splitlines():
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$", s)
        if m:
            env[m.group(1)] = m.group(2)
            continue
        f = s.split(None, 6)
        assert len(f) == 7, f"bad cron line: {line!r}"
        jobs.append({"min": expand(f[0], 0, 59), "hour": expand(f[1], 0, 23), "dom": expand(f[2], 1, 31),
                     "mon": expand(f[3], 1, 12), "dow": {d % 7 for d in expand(f[4], 0, 7)},
                     "dom_star": f[2].startswith("*"), "dow_star": f[4].startswith("*"),
                     "user": f[5], "cmd": f[6]})
    return env, jobs


def fires(job, t):
    if t.minute not in job["min"] or t.hour not in job["hour"] or t.month not in job["mon"]:
        return False
    dow = (t.weekday() + 1) % 7
    dom_ok, dow_ok = t.day in job["dom"], dow in job["dow"]
    if job["dom_star"] or job["dow_star"]:
        return dom_ok and dow_ok
    return dom_ok or dow_ok


def schedule(job, start, days):
    t, end, out = start, start + datetime.timedelta(days=days), []
    while t < end:
        if fires(job, t):
            out.append(t)
        t += datetime.timedelta(minutes=1)
    return out


def job_for(jobs, prog):
    found = [j for j in jobs if f"/usr/local/bin/{prog}" in j["cmd"] or j["cmd"].split()[0] == prog]
    assert len(found) == 1, f"expected exactly one job for {prog}"
    return found[0]


START = datetime.datetime(2025, 5, 26)  # a Monday; window covers June 1st (a Sunday)


def test_file_and_env():
    st = CRON.stat()
    assert st.st_uid == 0 and stat.S_IMODE(st.st_mode) == 0o644
    env, jobs = parse()
    assert env.get("MAILTO") in ('""', "''") and env.get("PATH") == "/usr/local/bin:/usr/bin:/bin"
    assert len(jobs) == 4


def test_db_backup_schedule():
    j = job_for(parse()[1], "db-backup")
    assert j["user"] == "backup"
    got = schedule(j, START, 14)
    want = [START + datetime.timedelta(days=d, hours=2, minutes=30) for d in range(14) if d % 7 < 5]
    assert got == want


def test_rotate_cache_schedule():
    j = job_for(parse()[1], "rotate-cache")
    assert j["user"] == "root"
    got = schedule(j, START, 2)
    want = [START + datetime.timedelta(days=d, hours=h, minutes=m) for d in range(2) for h in range(8, 19) for m in (0, 20, 40)]
    assert got == want


def test_monthly_report_schedule():
    j = job_for(parse()[1], "monthly-report")
    assert j["user"] == "reports" and "--email" in j["cmd"]
    got = schedule(j, datetime.datetime(2025, 5, 28), 40)
    assert got == [datetime.datetime(2025, 6, 1, 6, 15), datetime.datetime(2025, 7, 1, 6, 15)]


def test_cert_check_schedule():
    j = job_for(parse()[1], "cert-check")
    assert j["user"] == "root"
    got = schedule(j, START, 14)
    assert got == [datetime.datetime(2025, 6, 1, 0, 0), datetime.datetime(2025, 6, 1, 12, 0),
                   datetime.datetime(2025, 6, 8, 0, 0), datetime.datetime(2025, 6, 8, 12, 0)]


@pytest.mark.parametrize("prog", ["db-backup", "rotate-cache", "monthly-report", "cert-check"])
def test_job_runs_and_logs_both_streams(prog):
    env, jobs = parse()
    j = job_for(jobs, prog)
    log = Path(f"/var/log/maint/{prog}.log")
    st = log.stat()
    assert pwd.getpwuid(st.st_uid).pw_name == j["user"] and stat.S_IMODE(st.st_mode) == 0o640
    d = Path("/var/log/maint").stat()
    assert d.st_uid == 0 and stat.S_IMODE(d.st_mode) == 0o755
    before = log.read_text()
    r = subprocess.run(["su", "-s", "/bin/sh", j["user"], "-c", f"PATH={env['PATH']}; {j['cmd']}"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    new = log.read_text()[len(before):]
    assert f"{prog} ran as {j['user']}" in new
    assert f"{prog} warning" in new
