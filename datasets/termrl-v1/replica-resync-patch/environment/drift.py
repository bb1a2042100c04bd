"""A base database, and a primary and a replica that drifted from it independently (each consistent)."""
import random
import sqlite3
from pathlib import Path

SCHEMA = (Path(__file__).parent / "schema.sql").read_text()
FIRST = ["Ann", "Bo", "Chloé", "Dmitrij", "Eve", "O'Brien", "Zoë", "Łukasz", "NULL", "Ōta", "d'Arcy"]
ROLES = ["member", "admin", "owner", "guest"]


class Drift:
    def __init__(self, rng, n_users=80, n_teams=12):
        self.rng = rng
        self.n_users = n_users
        self.n_teams = n_teams

    def base(self, path):
        con = sqlite3.connect(path, isolation_level=None)
        con.executescript(SCHEMA)
        con.execute("BEGIN")
        r = self.rng
        for uid in r.sample(range(1, self.n_users * 3), self.n_users):
            self.add_user(con, uid)
        for tid in r.sample(range(1, self.n_teams * 3), self.n_teams):
            self.add_team(con, tid)
        for _ in range(self.n_users * 2):
            self.add_membership(con)
        con.execute("COMMIT")
        con.close()
        return path

    def users(self, con):
        return [u for (u,) in con.execute("SELECT id FROM users ORDER BY id")]

    def teams(self, con):
        return [t for (t,) in con.execute("SELECT id FROM teams ORDER BY id")]

    def email(self, con):
        r = self.rng
        while True:
            e = f"{r.choice(FIRST).lower().replace(chr(39), '')}.{r.randint(1, 10 ** 6)}@{r.choice(['ex.test', 'corp.test'])}"
            if not con.execute("SELECT 1 FROM users WHERE email = ?", (e,)).fetchone():
                return e

    def add_user(self, con, uid=None):
        r = self.rng
        if uid is None:
            uid = r.randint(1, self.n_users * 4)
            if con.execute("SELECT 1 FROM users WHERE id = ?", (uid,)).fetchone():
                return
        us = self.users(con)
        mgr = r.choice(us) if us and r.random() < 0.7 else None
        name = r.choice([None, r.choice(FIRST) + " " + r.choice(["Lee", "Ng", "O'Hara", "Müller"])])
        con.execute("INSERT INTO users VALUES (?,?,?,?)", (uid, self.email(con), name, mgr))

    def add_team(self, con, tid=None):
        r = self.rng
        if tid is None:
            tid = r.randint(1, self.n_teams * 4)
            if con.execute("SELECT 1 FROM teams WHERE id = ?", (tid,)).fetchone():
                return
        while True:
            slug = f"team-{r.randint(1, 500)}"
            if not con.execute("SELECT 1 FROM teams WHERE slug = ?", (slug,)).fetchone():
                break
        us = self.users(con)
        con.execute("INSERT INTO teams VALUES (?,?,?)", (tid, slug, r.choice(us) if us and r.random() < 0.8 else None))

    def add_membership(self, con):
        us, ts = self.users(con), self.teams(con)
        if us and ts:
            con.execute("INSERT OR IGNORE INTO memberships VALUES (?,?,?)", (self.rng.choice(us), self.rng.choice(ts), self.rng.choice(ROLES)))

    def rotate(self, con, table, col, ids):
        """Give each row the next row's value (a swap cycle through a UNIQUE column)."""
        vals = [con.execute(f"SELECT {col} FROM {table} WHERE id = ?", (i,)).fetchone()[0] for i in ids]
        for i in ids:
            con.execute(f"UPDATE {table} SET {col} = ? WHERE id = ?", (f"tmp-{i}", i))
        for i, v in zip(ids, vals[1:] + vals[:1]):
            con.execute(f"UPDATE {table} SET {col} = ? WHERE id = ?", (v, i))

    def mutate(self, con, n, weights=None):
        r = self.rng
        ops = ["add_user", "del_user", "rotate_email", "rename", "manager", "manager_cycle", "add_team", "del_team",
               "rotate_slug", "lead", "add_m", "del_m", "role", "new_email"]
        for _ in range(n):
            op = r.choices(ops, weights)[0] if weights else r.choice(ops)
            us, ts = self.users(con), self.teams(con)
            if op == "add_user":
                self.add_user(con)
            elif op == "del_user" and len(us) > 5:
                u = r.choice(us)
                for (t,) in con.execute("SELECT id FROM teams WHERE lead_id = ?", (u,)).fetchall():
                    con.execute("UPDATE teams SET lead_id = ? WHERE id = ?", (r.choice([None] + [x for x in us if x != u]), t))
                con.execute("DELETE FROM users WHERE id = ?", (u,))
            elif op == "rotate_email" and len(us) > 5:
                self.rotate(con, "users", "email", r.sample(us, r.randint(2, 5)))
            elif op == "new_email" and us:
                con.execute("UPDATE users SET email = ? WHERE id = ?", (self.email(con), r.choice(us)))
            elif op == "rename" and us:
                con.execute("UPDATE users SET name = ? WHERE id = ?", (r.choice([None, "Renamed 'x'", "Ünal"]), r.choice(us)))
            elif op == "manager" and us:
                con.execute("UPDATE users SET manager_id = ? WHERE id = ?", (r.choice([None] + us), r.choice(us)))
            elif op == "manager_cycle" and len(us) > 4:
                c = r.sample(us, r.randint(2, 4))
                for a, b in zip(c, c[1:] + c[:1]):
                    con.execute("UPDATE users SET manager_id = ? WHERE id = ?", (b, a))
            elif op == "add_team":
                self.add_team(con)
            elif op == "del_team" and len(ts) > 3:
                con.execute("DELETE FROM teams WHERE id = ?", (r.choice(ts),))
            elif op == "rotate_slug" and len(ts) > 3:
                self.rotate(con, "teams", "slug", r.sample(ts, r.randint(2, 3)))
            elif op == "lead" and ts and us:
                con.execute("UPDATE teams SET lead_id = ? WHERE id = ?", (r.choice([None] + us), r.choice(ts)))
            elif op == "add_m":
                self.add_membership(con)
            elif op == "del_m":
                m = con.execute("SELECT user_id, team_id FROM memberships ORDER BY user_id, team_id").fetchall()
                if m:
                    con.execute("DELETE FROM memberships WHERE user_id = ? AND team_id = ?", r.choice(m))
            elif op == "role":
                m = con.execute("SELECT user_id, team_id FROM memberships ORDER BY user_id, team_id").fetchall()
                if m:
                    con.execute("UPDATE memberships SET role = ? WHERE user_id = ? AND team_id = ?", (r.choice(ROLES), *r.choice(m)))

    def drifted(self, base, path, n, weights=None):
        path.write_bytes(Path(base).read_bytes())
        con = sqlite3.connect(path, isolation_level=None)
        con.execute("PRAGMA foreign_keys = ON")
        con.execute("BEGIN")
        self.mutate(con, n, weights)
        con.execute("COMMIT")
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        con.close()
        return path
