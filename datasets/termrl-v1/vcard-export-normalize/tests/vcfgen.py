"""Random contacts and their vCard files in the dialects of several phone/mail exports (test side only).
The generator keeps the truth, so the expected JSON is the contact itself, not a second parser."""
import random

GIVEN = ["Anna", "Zoë", "José María", "Björn", "Łukasz", "Chloé", "Søren", "Mei", "O'Neil", "Ana-Lucía", "Ömer"]
FAMILY = ["Müller", "Ångström", "García Márquez", "Nguyễn", "Smith", "Dvořák", "van der Berg", "Öztürk", "Ødegård"]
ORGS = ["Müller, Schmidt & Co", "ACME; Research Division", "Café \"Zur Post\"", "Back\\slash Ltd", "Straße 7 GmbH",
        "Initech", "Globex, Inc.; Sales"]
NOTES = ["Met at the fair, booth 12", "Allergies: nuts; gluten", "Prefers calls after 18:00\nnot on Sundays",
         "Überweisung bitte an: IBAN DE12 3456, Ref. 7", "line one\nline two\nline three, with comma",
         "Path C:\\temp\\x", "€ 250,00 deposit; paid"]
PHONE_TYPES = ["cell", "home", "work", "fax", "voice", "pager"]


def contact(rng):
    c = {"given": rng.choice(GIVEN + [""]), "family": rng.choice(FAMILY + [""])}
    if not c["given"] and not c["family"]:
        c["family"] = rng.choice(FAMILY)
    derived = " ".join(x for x in (c["given"], c["family"]) if x)
    c["fn"] = rng.choice([derived, derived, "", "Dr. " + derived, derived.upper()])
    c["name"] = c["fn"] or derived
    c["org"] = rng.choice(ORGS + ["", "", ""])
    emails, c["emails"] = [], []
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        base = f"{rng.choice(['anna', 'zoe', 'info', 'j.garcia', 'b.smith'])}{rng.randrange(100)}@{rng.choice(['example.org', 'mail.example.com'])}"
        emails.append(base)
        if base.lower() not in {e.lower() for e in c["emails"]}:
            c["emails"].append(base)
        if rng.random() < 0.25:   # the same address again, differently cased
            emails.append(base.upper() if rng.random() < 0.5 else base.capitalize())
    c["_emails_written"] = emails
    c["phones"] = []
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        digits = str(rng.randrange(10**7, 10**10))
        intl = rng.random() < 0.5
        number = ("+" + str(rng.choice([1, 44, 49, 33])) + digits) if intl else "0" + digits
        types = sorted(set(rng.sample(PHONE_TYPES, rng.choice([0, 1, 1, 2]))))
        c["phones"].append({"number": number, "types": types, "_pref": rng.random() < 0.3})
    c["note"] = rng.choice(NOTES + ["", ""])
    y, m, d = rng.randint(1950, 2005), rng.randint(1, 12), rng.randint(1, 28)
    c["birthday"] = rng.choice(["", f"{y:04d}-{m:02d}-{d:02d}", f"--{m:02d}-{d:02d}"])
    return c


def expected(c):
    return {"name": c["name"], "given": c["given"], "family": c["family"], "org": c["org"], "emails": c["emails"],
            "phones": [{"number": p["number"], "types": p["types"]} for p in c["phones"]], "note": c["note"],
            "birthday": c["birthday"]}


def esc(s):
    return s.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;").replace("\n", "\\n")


def fmt_phone(rng, number):
    if number.startswith("+"):
        cc, rest = number[1:3], number[3:]
        return rng.choice([number, f"+{cc} ({rest[:3]}) {rest[3:6]}-{rest[6:]}", f"+{cc} {rest[:4]} {rest[4:]}", f"+{cc}.{rest}"])
    return rng.choice([number, f"({number[:4]}) {number[4:]}", f"{number[:4]}/{number[4:7]}-{number[7:]}"])


def qp(rng, data: bytes, lead: int):
    """Quoted-printable with soft line breaks at random places (never inside an =XX triplet)."""
    toks = []
    for b in data:
        ch = chr(b)
        if b in (9, 32) or (33 <= b <= 126 and ch != "="):
            toks.append(ch if rng.random() < 0.85 else f"={b:02X}")
        else:
            toks.append(f"={b:02X}")
    out, col = [], lead
    for t in toks:
        if col + len(t) > rng.choice([20, 40, 73]) and out:
            out.append("=\r\n")
            col = 0
        out.append(t)
        col += len(t)
    s = "".join(out)
    if s.endswith((" ", "\t")):
        s = s[:-1] + f"={ord(s[-1]):02X}"
    return s


def params_21(rng, types):
    return "".join(";" + (t.upper() if rng.random() < 0.5 else "TYPE=" + t) for t in types)


def params_30(rng, types):
    if not types:
        return ""
    r = rng.random()
    if r < 0.33:
        return ";TYPE=" + ",".join(t.upper() for t in types)
    if r < 0.66:
        return "".join(f";type={t}" for t in types)
    return ';TYPE="' + ",".join(types) + '"'


def card(rng, c, version):
    lines = ["BEGIN:VCARD" if rng.random() < 0.8 else "begin:vcard", f"VERSION:{version}"]
    group = lambda: (f"item{rng.randint(1, 4)}." if rng.random() < 0.2 else "")

    def prop(name, params, value, raw=False):
        if version == "2.1" and not raw and any(ord(ch) > 126 or ch == "\n" for ch in value):
            charset = rng.choice(["UTF-8", "ISO-8859-1", "WINDOWS-1252"])
            try:
                data = value.replace("\n", "\r\n").encode(charset.replace("WINDOWS-", "cp"))
            except UnicodeEncodeError:
                charset, data = "UTF-8", value.replace("\n", "\r\n").encode("utf-8")
            enc = rng.choice([";ENCODING=QUOTED-PRINTABLE", ";QUOTED-PRINTABLE"])
            head = f"{group()}{name}{params};CHARSET={charset}{enc}:"
            lines.append(head + qp(rng, data, len(head)))
        else:
            lines.append(f"{group()}{name}{params}:{value}")

    if rng.random() < 0.5:
        prop("PRODID", "", "-//Vendor//Phone Export 3.2//EN")
    nval = f"{esc(c['family'])};{esc(c['given'])};;;"
    prop("N", "", nval)
    if c["fn"]:
        prop("FN", "", esc(c["fn"]))
    if c["org"]:
        prop("ORG", "", esc(c["org"]) + rng.choice(["", ";Dept. 4"]))
    for e in c["_emails_written"]:
        t = rng.choice([[], ["internet"], ["work"], ["home", "internet"]])
        prop("EMAIL", params_21(rng, t) if version == "2.1" else params_30(rng, t), rng.choice([e, e, " " + e]))
    for p in c["phones"]:
        types = list(p["types"]) + (["pref"] if p["_pref"] else [])
        rng.shuffle(types)
        shown = fmt_phone(rng, p["number"])
        if version == "4.0" and rng.random() < 0.5:
            prop("TEL", ";VALUE=uri" + params_30(rng, types), "tel:" + shown.replace(" ", "-").replace("(", "").replace(")", ""))
        else:
            prop("TEL", params_21(rng, types) if version == "2.1" else params_30(rng, types), shown)
    if c["note"]:
        if version == "2.1" and "\n" in c["note"]:   # 2.1 writes line breaks as quoted-printable CRLF
            prop("NOTE", "", "\n".join(esc(x) for x in c["note"].split("\n")))
        else:
            prop("NOTE", "", esc(c["note"]))
    if c["birthday"]:
        b = c["birthday"]
        prop("BDAY", "", rng.choice([b, b.replace("-", "")]) if not b.startswith("--") else rng.choice([b, "--" + b[2:4] + b[5:]]))
    if rng.random() < 0.3:
        prop("X-CUSTOM", ";X-P=1", "ignored: value; with, stuff")
    lines.append("END:VCARD" if rng.random() < 0.8 else "end:VCARD")
    return lines


def fold(rng, line):
    """Fold long lines (vCard 3.0/4.0 style) at character positions, continuation starts with space or tab."""
    if len(line) < 30 or rng.random() < 0.5:
        return [line]
    out, rest = [], line
    while len(rest) > 25:
        k = rng.randint(10, 25)
        out.append(rest[:k])
        rest = rng.choice([" ", "\t"]) + rest[k:]
    out.append(rest)
    return out


def vcf_file(rng, contacts, version=None, enc=None):
    """-> (bytes of one .vcf file, expected JSON objects)."""
    version = version or rng.choice(["2.1", "3.0", "4.0"])
    phys = []
    for c in contacts:
        for line in card(rng, c, version):
            if version == "2.1":
                phys.extend(line.split("\r\n"))   # soft breaks become physical lines
            else:
                phys.extend(fold(rng, line))
        if rng.random() < 0.3:
            phys.append("")
    eol = rng.choice(["\r\n", "\r\n", "\n"])
    text = eol.join(phys) + eol
    enc = enc or rng.choice(["utf-8", "utf-8-sig", "utf-16", "utf-16-be-bom"])
    if enc == "utf-16-be-bom":
        data = b"\xfe\xff" + text.encode("utf-16-be")
    else:
        data = text.encode(enc)
    return data, [expected(c) for c in contacts]
