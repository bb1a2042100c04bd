import hashlib
import json
import os
import re
import stat

R = "/srv/rootfs"

CREATED = [
    "/etc/ld.so.preload",
    "/etc/systemd/system/journald-sync.service",
    "/etc/systemd/system/multi-user.target.wants/journald-sync.service",
    "/usr/lib/x86_64-linux-gnu/libpamcache.so.2",
    "/usr/libexec/journald-sync",
    "/var/spool/cron/crontabs/www-data",
    "/var/tmp/.font-unix/fc-cache",
]
# sha256 and permission bits of each modified file as it was before the intrusion
MODIFIED = {
    "/etc/passwd": ("40f20f93eddca911feef3ec5a8014ac6f5836cd89e73f708be76aadc93ba73e8", 0o644),
    "/etc/shadow": ("39b85303a61a9cfbe3187be68d38eb61bd8ff409be3245b3a23b80945e5e0402", 0o640),
    "/home/deploy/.ssh/authorized_keys": ("ff59405634e845da379f639bc26dc4cf0ce8555e593b492d6a33cc56de892ace", 0o600),
    "/root/.bashrc": ("1b2d61dcb127195c22ca4bda916b4abb96244d7669bfa75b66d982dd4b28f0a9", 0o644),
    "/usr/lib/motd-news/motd-news.sh": ("4dcc4460b2558d80b8a2bf30ff17f54f090189a3b1d37c872efc0030d8e77201", 0o755),
}
# digest of everything else under /srv/rootfs (paths, types, permission bits, contents, link targets)
REST_DIGEST = "8bbb7afa3f755e6cf42954bb6efa217cb0ef535294353d599d58729298d10386"
# the directory the intruder made for one payload may be left empty or removed
OPTIONAL_DIRS = {"/var/tmp/.font-unix"}


def real(h):
    return os.path.join(R, h.lstrip("/"))


def sha(p):
    return hashlib.sha256(open(p, "rb").read()).hexdigest()


def rest_digest():
    skip = set(CREATED) | set(MODIFIED) | OPTIONAL_DIRS
    h = hashlib.sha256()
    for d, dirs, files in os.walk(R):
        dirs.sort()
        for n in sorted(files + dirs):
            p = os.path.join(d, n)
            hp = "/" + os.path.relpath(p, R)
            if hp in skip:
                continue
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                h.update(f"L {hp} {os.readlink(p)}\n".encode())
            elif stat.S_ISDIR(st.st_mode):
                h.update(f"D {hp}\n".encode())
            else:
                h.update(f"F {hp} {stat.S_IMODE(st.st_mode):o} {sha(p)}\n".encode())
    return h.hexdigest()


def test_report_lists_exactly_the_intruders_files():
    report = json.load(open("/app/report.json"))
    assert isinstance(report, list) and all(isinstance(x, str) for x in report)
    assert report == sorted(report), "the array must be sorted"
    expected = sorted(CREATED + list(MODIFIED))
    missing = sorted(set(expected) - set(report))
    extra = sorted(set(report) - set(expected))
    assert not missing and not extra, f"missing {missing}, not the intruder's {extra}"
    assert len(report) == len(expected), "duplicates in the report"


def test_intruder_created_files_are_deleted():
    left = [h for h in CREATED if os.path.lexists(real(h))]
    assert not left, f"still present: {left}"


def test_modified_files_are_restored_byte_for_byte():
    for h, (digest, mode) in MODIFIED.items():
        p = real(h)
        assert os.path.isfile(p) and not os.path.islink(p), f"{h} must be kept, not deleted"
        assert sha(p) == digest, f"{h} is not exactly its pre-intrusion content"
        assert stat.S_IMODE(os.stat(p).st_mode) == mode, f"{h}: permissions changed"


def test_no_unapproved_access_remains():
    inv = {}
    for line in open("/srv/inventory/accounts.txt"):
        if line.strip() and not line.startswith("#"):
            n, uid = line.split()
            inv[n] = uid
    for line in open(real("/etc/passwd")):
        name, _, uid = line.split(":")[:3]
        assert inv.get(name) == uid, f"account {name} (uid {uid}) is not approved"
    assert {l.split(":")[0] for l in open(real("/etc/shadow"))} <= set(inv)
    approved = {tuple(l.split()[:2]) for l in open("/srv/inventory/ssh-keys/deploy.pub")}
    present = {tuple(re.search(r"(ssh-\S+) (\S+)", l).groups()) for l in open(real("/home/deploy/.ssh/authorized_keys"))}
    assert present == approved


def test_package_files_match_dpkg_checksums():
    info = real("/var/lib/dpkg/info")
    n = 0
    for f in sorted(os.listdir(info)):
        if f.endswith(".md5sums"):
            for line in open(os.path.join(info, f)):
                digest, rel = line.split(None, 1)
                data = open(os.path.join(R, rel.strip()), "rb").read()
                assert hashlib.md5(data).hexdigest() == digest, rel.strip()
                n += 1
    assert n >= 5


def test_everything_else_is_untouched():
    assert rest_digest() == REST_DIGEST, "files other than the intruder's were changed, added or removed"
