#!/bin/bash
# Fixes, found by running the stack against its contract:
#  1. the gateway sends /notes traffic to 8802, notesd listens on 8803 (stack.conf)
#  2. notesd compares X-Internal-Key with the key file's raw content (trailing newline): always 403
#  3. notesd shares one SQLite connection across request threads, and keeps notes.db relative to the cwd
#  4. the gateway trusts a client-sent X-User header, and drops the query string when forwarding
#  5. authd keeps revoked tokens per connection, so a logout is forgotten at once
#  6. start.sh never creates /run/stack for authd's socket
set -euo pipefail
cd /app/stack
python3 - <<'PY'
import re
p = "stack.conf"
s = open(p).read()
s = s.replace("notes_url = http://127.0.0.1:8802", "notes_url = http://127.0.0.1:8803")
s = s.replace("db = notes.db", "db = /var/lib/stack/notes.db")
open(p, "w").write(s)

p = "notesd.py"
s = open(p).read()
s = s.replace('KEY = open(N["internal_key_file"]).read()', 'KEY = open(N["internal_key_file"]).read().strip()')
s = s.replace("import sys\n", "import sys\nimport threading\n", 1)
s = s.replace('DB = sqlite3.connect(N["db"])', 'DB = sqlite3.connect(N["db"], check_same_thread=False)\nLOCK = threading.Lock()')
s = s.replace('        return self.headers.get("X-User")',
              '        u = self.headers.get("X-User")\n        if not u:\n            self.reply(403, {"error": "forbidden"})\n        return u')
for verb in ("do_GET", "do_POST", "do_DELETE"):
    s = s.replace(f"    def {verb}(self):\n", f"    def {verb}(self):\n        with LOCK:\n            self._{verb}()\n\n    def _{verb}(self):\n")
open(p, "w").write(s)

p = "gateway.py"
s = open(p).read()
s = s.replace('''            user = self.headers.get("X-User")
            if not user:
                tok = self.token()
                r = auth({"op": "check", "token": tok}) if tok else {}
                if not r.get("ok"):
                    self.body()
                    return self.reply(401, b'{"error": "unauthorized"}')
                user = r["user"]
            return self.forward(method, path, user)''', '''            tok = self.token()
            r = auth({"op": "check", "token": tok}) if tok else {}
            if not r.get("ok"):
                self.body()
                return self.reply(401, b'{"error": "unauthorized"}')
            return self.forward(method, self.path, r["user"])''')
open(p, "w").write(s)

p = "authd.py"
s = open(p).read()
s = s.replace('''    def setup(self):
        super().setup()
        self.revoked = set()

''', "")
s = s.replace("sig in self.revoked", "sig in REVOKED")
s = s.replace("self.revoked.add(sig)", "REVOKED.add(sig)")
s = s.replace("TTL = int(A[\"ttl\"])\n", "TTL = int(A[\"ttl\"])\nREVOKED = set()\n")
open(p, "w").write(s)
PY
cat > start.sh <<'SH'
#!/bin/bash
# Starts the whole stack; stays in the foreground until it is stopped.
mkdir -p /run/stack
python3 /app/stack/authd.py &
python3 /app/stack/notesd.py &
python3 /app/stack/gateway.py &
trap 'kill $(jobs -p) 2>/dev/null; exit 0' TERM INT
wait
SH
chmod +x start.sh
