#!/bin/bash
# Fixes the mail stack: launcher paths, pop3d's Maildir key, sizes and deferred deletes, smtpd's domain
# case, recursive aliases and dot-unstuffing.
set -euo pipefail
cd /app/mailstack
python3 - <<'PY'
def fix(path, pairs):
    s = open(path).read()
    for old, new in pairs:
        assert old in s, (path, old)
        s = s.replace(old, new)
    open(path, "w").write(s)


fix("start.sh", [("python3 smtpd.py &\npython3 pop3d.py &\n",
                  'cd "$(dirname "$(readlink -f "$0")")"\npython3 smtpd.py &\npython3 pop3d.py &\n')])
fix("smtpd.py", [
    ('DOMAINS = set(CONF["domains"])', 'DOMAINS = {d.lower() for d in CONF["domains"]}'),
    ("""    for n in ALIASES.get(name, ()):
        if n in USERS:
            out.add(n)""", """    for n in ALIASES.get(name, ()):
        expand(n, out)"""),
    ("""                    size += len(body) + 2""", """                    if body.startswith(b"."):
                        body = body[1:]
                    size += len(body) + 2"""),
])
fix("pop3d.py", [
    ('ROOT = CONF.get("mail_root", "/var/mail")', 'ROOT = CONF.get("maildir_root", "/var/mail")'),
    ("        self.size = os.path.getsize(self.path)\n", "        self.size = sum(len(l) + 2 for l in self.lines)\n"),
    ("                m = self.get(args)[1]\n                m.deleted = True\n                os.unlink(m.path)\n",
     "                self.get(args)[1].deleted = True\n"),
    ("            if m.deleted:\n                continue\n", "            if m.deleted:\n                os.unlink(m.path)\n"),
    ("                for m in self.msgs:\n                    m.deleted = m.deleted and not os.path.exists(m.path)\n",
     "                for m in self.msgs:\n                    m.deleted = False\n"),
])
PY
