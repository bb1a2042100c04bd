"""Builds /app/data/notes.db as production has it: written for months through the faulty triggers."""
import random
import sqlite3

WORDS = ("alpha budget meeting report draft review invoice travel garden kitchen server backup deploy "
         "release ticket customer vendor pricing roadmap sprint retro design network cable printer label "
         "café résumé naïve zürich crème e-mail follow-up don't and or not near to-do").split()
r = random.Random(1402)
con = sqlite3.connect("/app/data/notes.db")
con.executescript(open("/app/app/schema.sql").read())


def text(n):
    return " ".join(r.choice(WORDS) for _ in range(n))


for i in range(1, 401):
    con.execute("INSERT INTO notes (id, title, body) VALUES (?,?,?)", (i, text(r.randint(1, 4)).capitalize(), text(r.randint(5, 30))))
for _ in range(300):
    i = r.randint(1, 400)
    op = r.random()
    if op < 0.4:
        con.execute("UPDATE notes SET body = ? WHERE id = ?", (text(r.randint(5, 30)), i))
    elif op < 0.7:
        con.execute("UPDATE notes SET title = ? WHERE id = ?", (text(r.randint(1, 4)).capitalize(), i))
    elif op < 0.85:
        con.execute("DELETE FROM notes WHERE id = ?", (i,))
    else:
        con.execute("INSERT OR REPLACE INTO notes (id, title, body) VALUES (?,?,?)", (i, text(3).capitalize(), text(12)))
con.commit()
con.close()
