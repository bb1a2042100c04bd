"""/app/pamsim.py against the rules of /app/SPEC.md: hand-checked stacks for each rule, then random policy
directories and scenarios generated here, compared with a reference evaluator."""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import pamref  # noqa: E402

TOOL = "/app/pamsim.py"
RNG = random.Random(os.urandom(8))
MODULES = ["pam_unix.so", "pam_sss.so", "pam_ldap.so", "pam_faillock.so", "pam_deny.so", "pam_permit.so",
           "pam_succeed_if.so", "pam_env.so", "pam_google_authenticator.so", "pam_systemd.so", "pam_tally2.so"]
RESULTS = ["success", "ignore", "auth_err", "user_unknown", "perm_denied", "cred_insufficient",
           "authinfo_unavail", "new_authtok_reqd", "acct_expired"]
VALUES = RESULTS + ["module_unknown"]
ACTIONS = ["ignore", "ok", "done", "bad", "die", "reset", 1, 2, 3]


def write_policy(d, files):
    d.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (d / name).write_text(text)


def query(d, scenario, service, typ, tmp_path):
    sc = tmp_path / f"scenario-{RNG.getrandbits(32):08x}.json"
    sc.write_text(json.dumps({"modules": scenario}))
    r = subprocess.run([sys.executable, TOOL, str(d), str(sc), service, typ], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def reference(d, scenario, service, typ):
    trace = []
    _, status = pamref.run(pamref.build(str(d), service, typ, scenario), scenario, trace)
    return {"result": status, "trace": trace}


DEBIAN = """# common-auth, Debian style
auth\t[success=2 default=ignore]\tpam_unix.so nullok
auth\t[success=1 default=ignore]\tpam_sss.so use_first_pass
auth\trequisite\t\t\tpam_deny.so
auth\trequired\t\t\tpam_permit.so
account required pam_unix.so
"""


def test_jumps_in_a_classic_stack(tmp_path):
    d = tmp_path / "p"
    write_policy(d, {"common-auth": DEBIAN, "login": "auth include common-auth\naccount include common-auth\n"})
    base = {"pam_unix.so": "auth_err", "pam_sss.so": "success", "pam_deny.so": "auth_err", "pam_permit.so": "success"}
    assert query(d, base, "login", "auth", tmp_path) == {
        "result": "success", "trace": ["pam_unix.so", "pam_sss.so", "pam_permit.so"]}
    assert query(d, dict(base, **{"pam_sss.so": "authinfo_unavail"}), "login", "auth", tmp_path) == {
        "result": "auth_err", "trace": ["pam_unix.so", "pam_sss.so", "pam_deny.so"]}
    assert query(d, dict(base, **{"pam_unix.so": "success"}), "login", "auth", tmp_path) == {
        "result": "success", "trace": ["pam_unix.so", "pam_permit.so"]}
    assert query(d, {"pam_unix.so": "acct_expired"}, "login", "account", tmp_path) == {
        "result": "acct_expired", "trace": ["pam_unix.so"]}


def test_include_is_inline_but_substack_is_nested(tmp_path):
    d = tmp_path / "p"
    lib = "auth sufficient pam_unix.so\nauth required pam_deny.so\n"
    write_policy(d, {"lib": lib, "inc": "auth include lib\nauth required pam_faillock.so\n",
                     "sub": "auth substack lib\nauth required pam_faillock.so\n"})
    sc = {"pam_unix.so": "success", "pam_deny.so": "auth_err", "pam_faillock.so": "perm_denied"}
    assert query(d, sc, "inc", "auth", tmp_path) == {"result": "success", "trace": ["pam_unix.so"]}
    assert query(d, sc, "sub", "auth", tmp_path) == {"result": "perm_denied", "trace": ["pam_unix.so", "pam_faillock.so"]}
    # a jump inside an included file runs on into the including file's lines; in a substack it cannot
    write_policy(d, {"j": "auth [success=2 default=ignore] pam_unix.so\nauth required pam_env.so\n",
                     "inc2": "auth include j\nauth required pam_deny.so\nauth optional pam_permit.so\n",
                     "sub2": "auth substack j\nauth required pam_deny.so\nauth optional pam_permit.so\n"})
    sc = {"pam_unix.so": "success", "pam_env.so": "success", "pam_deny.so": "auth_err", "pam_permit.so": "success"}
    assert query(d, sc, "inc2", "auth", tmp_path) == {"result": "success", "trace": ["pam_unix.so", "pam_permit.so"]}
    assert query(d, sc, "sub2", "auth", tmp_path) == {"result": "auth_err", "trace": ["pam_unix.so", "pam_deny.so", "pam_permit.so"]}


def test_missing_modules_and_dash(tmp_path):
    d = tmp_path / "p"
    write_policy(d, {"sshd": "-auth [success=1 default=ignore] pam_google_authenticator.so\n"
                             "auth [success=1 default=ignore] pam_unix.so\n"
                             "auth requisite pam_deny.so\n"
                             "auth required pam_permit.so\n"
                             "auth optional pam_ldap.so\n"
                             "session required pam_systemd.so\n"})
    sc = {"pam_unix.so": "success", "pam_deny.so": "auth_err", "pam_permit.so": "success"}
    # the -auth line is gone, so unix's jump skips only pam_deny; pam_ldap is missing but optional
    assert query(d, sc, "sshd", "auth", tmp_path) == {"result": "success", "trace": ["pam_unix.so", "pam_permit.so"]}
    # with the authenticator installed its line counts again: its jump skips pam_unix, pam_deny dies
    sc2 = dict(sc, **{"pam_google_authenticator.so": "success"})
    assert query(d, sc2, "sshd", "auth", tmp_path) == {
        "result": "auth_err", "trace": ["pam_google_authenticator.so", "pam_deny.so"]}
    # a jump counts the lines that remain after the missing '-' line is removed
    write_policy(d, {"su": "auth [success=1 default=ignore] pam_unix.so\n"
                           "-auth optional pam_google_authenticator.so\n"
                           "auth requisite pam_deny.so\n"
                           "auth required pam_permit.so\n"})
    assert query(d, sc, "su", "auth", tmp_path) == {"result": "success", "trace": ["pam_unix.so", "pam_permit.so"]}
    # a required module that is not installed fails the stack with module_unknown
    assert query(d, {}, "sshd", "session", tmp_path) == {"result": "module_unknown", "trace": []}


def test_status_rules_ok_bad_reset(tmp_path):
    d = tmp_path / "p"
    write_policy(d, {
        "a": "auth [success=ok auth_err=ok default=bad] pam_unix.so\nauth required pam_sss.so\n",
        "b": "auth required pam_unix.so\nauth [default=reset] pam_env.so\nauth optional pam_sss.so\n",
        "c": "auth required pam_unix.so\nauth required pam_sss.so\nauth required pam_ldap.so\n",
        "e": "auth optional pam_env.so\nauth [default=ignore] pam_unix.so\n",
    })
    # ok only overwrites a pass whose status is still success
    assert query(d, {"pam_unix.so": "success", "pam_sss.so": "success"}, "a", "auth", tmp_path)["result"] == "success"
    assert query(d, {"pam_unix.so": "auth_err", "pam_sss.so": "success"}, "a", "auth", tmp_path)["result"] == "auth_err"
    # reset forgets an earlier failure
    assert query(d, {"pam_unix.so": "auth_err", "pam_env.so": "success", "pam_sss.so": "success"}, "b", "auth",
                 tmp_path) == {"result": "success", "trace": ["pam_unix.so", "pam_env.so", "pam_sss.so"]}
    # the first failure's result is kept
    assert query(d, {"pam_unix.so": "success", "pam_sss.so": "user_unknown", "pam_ldap.so": "authinfo_unavail"},
                 "c", "auth", tmp_path)["result"] == "user_unknown"
    # nothing decided: perm_denied
    assert query(d, {"pam_env.so": "ignore", "pam_unix.so": "auth_err"}, "e", "auth", tmp_path) == {
        "result": "perm_denied", "trace": ["pam_env.so", "pam_unix.so"]}


def random_control():
    roll = RNG.random()
    if roll < 0.45:
        return RNG.choice(["required", "requisite", "sufficient", "optional"])
    pairs = {}
    for v in RNG.sample(VALUES, RNG.randint(1, 4)):
        pairs[v] = RNG.choice(ACTIONS)
    if RNG.random() < 0.7:
        pairs["default"] = RNG.choice(["ignore", "bad", "die", "ok", 1])
    items = list(pairs.items())
    RNG.shuffle(items)
    return "[" + " ".join(f"{k}={v}" for k, v in items) + "]"


def random_policy(d, nlibs=4, nservices=3):
    files = {}
    libs = [f"common-{i}" for i in range(nlibs)]
    for idx, name in enumerate(libs + [f"svc{i}" for i in range(nservices)]):
        later = libs[idx + 1:] if idx < nlibs else libs
        lines = []
        for _ in range(RNG.randint(2, 7)):
            typ = RNG.choice(["auth", "auth", "auth", "account"])
            if later and RNG.random() < 0.25:
                lines.append(f"{typ} {RNG.choice(['include', 'substack'])} {RNG.choice(later)}")
                continue
            dash = "-" if RNG.random() < 0.15 else ""
            sep = RNG.choice([" ", "\t", "  "])
            args = " ".join(RNG.sample(["nullok", "try_first_pass", "debug", "silent", "deny=3"], RNG.randint(0, 2)))
            lines.append(f"{dash}{typ}{sep}{random_control()}{sep}{RNG.choice(MODULES)} {args}".rstrip())
        if RNG.random() < 0.3:
            lines.insert(RNG.randrange(len(lines) + 1), "# " + RNG.choice(["local changes", "see SPEC", ""]))
        if RNG.random() < 0.3:
            lines.insert(RNG.randrange(len(lines) + 1), "")
        files[name] = "\n".join(lines) + "\n"
    write_policy(d, files)
    return [f"svc{i}" for i in range(nservices)] + libs[:1]


def random_scenario():
    return {m: RNG.choice(RESULTS) for m in MODULES if RNG.random() < 0.8}


def fuzz(tmp_path, rounds, **kw):
    bad = []
    for k in range(rounds):
        d = tmp_path / f"pol{k}"
        services = random_policy(d, **kw)
        for _ in range(2):
            sc = random_scenario()
            for svc in services:
                typ = RNG.choice(["auth", "auth", "account"])
                got = query(d, sc, svc, typ, tmp_path)
                want = reference(d, sc, svc, typ)
                if got != want:
                    bad.append((k, svc, typ, sc, got, want))
    assert not bad, bad[:3]


def test_random_policies_small(tmp_path):
    fuzz(tmp_path, 3, nlibs=2, nservices=2)


def test_random_policies_nested(tmp_path):
    fuzz(tmp_path, 4, nlibs=5, nservices=2)
