"""Customer records from three sources and the legacy MDM's golden records for them (test side only)."""
import csv
import io
import random
from datetime import datetime, timedelta

COLS = ["source", "source_id", "first_name", "last_name", "email", "phone", "street", "city", "zip",
        "updated_at", "lifetime_value", "opt_in"]
GOLD = ["golden_id", "first_name", "last_name", "email", "phone", "street", "city", "zip", "lifetime_value",
        "opt_in", "sources", "record_count"]
FIRST = ["Anna", "Ben", "Clara", "David", "Elif", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kemal", "Lea"]
LAST = ["Schmidt", "Meyer", "Yilmaz", "Novak", "Rossi", "Dubois", "Kowalski", "Berg", "Ortiz", "Larsen"]
STREETS = ["Hauptstr. 1", "Lindenweg 12a", "Am Markt 3", "Bahnhofstr. 45", "Ringstr. 7", "Parkallee 20"]
CITIES = [("Berlin", "10115"), ("Hamburg", "20095"), ("Köln", "50667"), ("Leipzig", "04109"), ("Bonn", "53111")]
PRIORITY = {"crm": 0, "pos": 1, "shop": 2}


def phone_variants(digits, rng):
    # digits: national number without leading 0, e.g. "301234567"
    return rng.choice([f"+49 {digits[:3]} {digits[3:]}", f"0{digits}", f"0049-{digits}", f"(0{digits[:3]}) {digits[3:]}",
                       f"+49{digits}"])


def norm_phone(p):
    d = "".join(c for c in p if c.isdigit())
    if d.startswith("0049"):
        d = d[4:]
    elif d.startswith("49") and p.strip().startswith("+"):
        d = d[2:]
    elif d.startswith("0"):
        d = d[1:]
    return d


def norm_email(e):
    return e.strip().lower()


def generate(seed, n_people=40):
    rng = random.Random(seed)
    rows = []
    ids = {"crm": rng.randrange(1000, 5000), "shop": rng.randrange(10000, 50000), "pos": rng.randrange(100, 900)}
    t0 = datetime(2024, 1, 1)
    used = set()
    for _ in range(n_people):
        fn, ln = rng.choice(FIRST), rng.choice(LAST)
        emails = [f"{fn.lower()}.{ln.lower()}{rng.randrange(100)}@{rng.choice(['mail.de', 'web.de', 'gmx.net'])}"]
        if rng.random() < 0.4:
            emails.append(f"{fn[0].lower()}{ln.lower()}@{rng.choice(['firma.de', 'uni-bonn.de'])}")
        phones = [str(rng.choice([30, 40, 221, 341, 228])) + str(rng.randrange(10**6, 10**7))]
        if rng.random() < 0.6:
            phones.append("17" + str(rng.randrange(10**7, 10**8)))
        n = rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 6])
        # a chain: every record shares the email or the phone of an earlier one
        for k in range(n):
            src = rng.choice(["crm", "shop", "shop", "pos"])
            ids[src] += rng.randrange(1, 40)
            sid = {"crm": "C", "shop": "S", "pos": "P"}[src] + f"{ids[src]:07d}"
            email = rng.choice(emails)
            phone = rng.choice(phones)
            if k > 0 and rng.random() < 0.35:
                email = "" if rng.random() < 0.5 else rng.choice(emails)
            if email == "" and phone == "":
                phone = phones[0]
            if k > 0 and rng.random() < 0.3 and email:
                phone = ""
            city, z = rng.choice(CITIES)
            street = rng.choice(STREETS)
            if rng.random() < 0.25:
                street, city, z = rng.choice([(street, "", z), ("", city, z), (street, city, "")])
            em_out = email
            if email and rng.random() < 0.4:
                em_out = rng.choice([email.upper(), " " + email, email.capitalize() + " "])
            fn_out = rng.choice([fn, fn, fn.upper(), "", fn[:3], fn[:3].lower()]) if src != "crm" else rng.choice([fn, fn, ""])
            ln_out = rng.choice([ln, ln, ln.upper(), "", rng.choice(LAST)]) if src != "crm" else ln
            upd = t0 + timedelta(minutes=rng.randrange(0, 600 * 24 * 60))
            while upd in used:
                upd += timedelta(minutes=1)
            used.add(upd)
            ltv = "" if src == "crm" and rng.random() < 0.5 else f"{rng.randrange(0, 500000) / 100:.2f}"
            opt = rng.choice(["Y", "Y", "N", ""])
            rows.append({"source": src, "source_id": sid, "first_name": fn_out, "last_name": ln_out, "email": em_out,
                         "phone": phone_variants(phone, rng) if phone else "", "street": street, "city": city,
                         "zip": z, "updated_at": upd.strftime("%Y-%m-%d %H:%M:%S"), "lifetime_value": ltv,
                         "opt_in": opt})
    rng.shuffle(rows)
    return rows


def to_csv(rows, cols):
    buf = io.StringIO()
    w = csv.DictWriter(buf, cols, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def golden(rows):
    """The legacy MDM's rules."""
    n = len(rows)
    parent = list(range(n))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    seen = {}
    for i, r in enumerate(rows):
        keys = []
        if norm_email(r["email"]):
            keys.append(("e", norm_email(r["email"])))
        if r["phone"].strip():
            keys.append(("p", norm_phone(r["phone"])))
        for k in keys:
            if k in seen:
                parent[find(i)] = find(seen[k])
            else:
                seen[k] = i
    clusters = {}
    for i in range(n):
        clusters.setdefault(find(i), []).append(rows[i])
    out = []
    for recs in clusters.values():
        by_recent = sorted(recs, key=lambda r: (r["updated_at"], r["source_id"]), reverse=True)
        by_prio = sorted(recs, key=lambda r: (PRIORITY[r["source"]], [-ord(c) for c in r["updated_at"]]))

        def first_nonempty(seq, f):
            return next((r[f] for r in seq if r[f].strip()), "")

        fn = first_nonempty(by_prio, "first_name").strip().title()
        ln = first_nonempty(by_prio, "last_name").strip().title()
        email = norm_email(first_nonempty(by_recent, "email"))
        counts = {}
        for r in by_recent:
            if r["phone"].strip():
                p = norm_phone(r["phone"])
                counts[p] = counts.get(p, 0) + 1
        phone = ""
        if counts:
            best = max(counts.values())
            phone = next(norm_phone(r["phone"]) for r in by_recent
                         if r["phone"].strip() and counts[norm_phone(r["phone"])] == best)
            phone = "+49" + phone
        addr = next(((r["street"], r["city"], r["zip"]) for r in by_recent if r["street"] and r["city"] and r["zip"]),
                    ("", "", ""))
        ltv = sum(int(round(float(r["lifetime_value"]) * 100)) for r in recs
                  if r["source"] != "crm" and r["lifetime_value"])
        opts = {r["opt_in"] for r in recs}
        opt = "N" if "N" in opts else "Y" if "Y" in opts else ""
        srcs = ";".join(f"{s}:{sum(1 for r in recs if r['source'] == s)}" for s in ("crm", "pos", "shop")
                        if any(r["source"] == s for r in recs))
        gid = "G-" + min(r["source_id"] for r in recs)
        out.append({"golden_id": gid, "first_name": fn, "last_name": ln, "email": email, "phone": phone,
                    "street": addr[0], "city": addr[1], "zip": addr[2], "lifetime_value": f"{ltv / 100:.2f}",
                    "opt_in": opt, "sources": srcs, "record_count": str(len(recs))})
    out.sort(key=lambda g: g["golden_id"])
    return out
