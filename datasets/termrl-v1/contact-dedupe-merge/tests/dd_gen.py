import csv
import datetime as dt
import random

FIRST = ["Anna", "Ben", "Chloe", "Dev", "Emma", "Farid", "Gia", "Hugo"]
LAST = ["Meyer", "Okoro", "Lund", "Patel", "Rossi", "Kim"]
CITIES = ["Berlin", "Austin", "Kyoto", "Lagos", ""]


def gen(path, seed, people=60):
    rng = random.Random(seed)
    rows = []
    ids = {"crm": 0, "webshop": 0, "newsletter": 0}
    for p in range(people):
        fn, ln = rng.choice(FIRST), rng.choice(LAST)
        user = f"{fn.lower()}.{ln.lower()}{p}"
        dom = rng.choice(["gmail.com", "example.org", "mail.test"])
        phone = f"{rng.randint(200, 999)}{rng.randint(200, 999)}{rng.randint(1000, 9999)}"
        for _ in range(rng.choice([1, 1, 2, 2, 3, 4])):
            src = rng.choice(sorted(ids))
            ids[src] += 1
            em = f"{user}@{dom}"
            r = rng.random()
            if dom == "gmail.com" and r < 0.3:
                em = f"{user.replace('.', '')}+{rng.choice(['shop', 'news'])}@{rng.choice(['gmail.com', 'googlemail.com'])}"
            elif r < 0.4:
                em = " " + em.upper() + " "
            elif r < 0.55:
                em = ""
            elif r < 0.6:
                em = "broken-at-" + dom
            ph = rng.choice([phone, f"({phone[:3]}) {phone[3:6]}-{phone[6:]}", f"+1 {phone[:3]} {phone[3:6]} {phone[6:]}", "", "12345"])
            name_ln = ln if rng.random() > 0.1 else ln.upper()
            when = dt.datetime(2024, 1, 1) + dt.timedelta(minutes=rng.randint(0, 200000))
            rows.append([src, f"{src[:2].upper()}{ids[src]:04d}", rng.choice([fn, f" {fn} ", fn]), name_ln,
                         em, ph, rng.choice(CITIES), when.strftime("%Y-%m-%dT%H:%M:%S")])
    rng.shuffle(rows)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["source", "source_id", "first_name", "last_name", "email", "phone", "city", "updated_at"])
        w.writerows(rows)
