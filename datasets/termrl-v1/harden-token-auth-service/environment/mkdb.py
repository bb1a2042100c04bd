import hashlib, sqlite3
db = sqlite3.connect("/app/authsvc/users.db")
db.execute("CREATE TABLE users(name TEXT PRIMARY KEY, pw_sha256 TEXT, role TEXT)")
for n, p, r in [("alice", "correct horse", "user"), ("root", "Adm1n!2025", "admin"), ("mallory", "mallory123", "not-admin"),
                ("svc", "svc-pass", "service")]:
    db.execute("INSERT INTO users VALUES (?,?,?)", (n, hashlib.sha256(p.encode()).hexdigest(), r))
db.commit()
