"""MT940 bank statements with the quirks of real bank exports, and the transactions they hold (test side only).
The expected CSV comes from the generated transactions, not from a second parser."""
import csv
import io
import random
from datetime import date, timedelta

NAMES = ["Max Mustermann", "Müller & Söhne GmbH", "Stadtwerke Köln", "Amazon EU S.a.r.l.", "Finanzamt München",
         "Renée Dubois-Leclerc", "Jörg O'Neill", "Gebühren", "Allianz Versicherungs-AG", ""]
PURPOSES = ["Rechnung 2025-0042", "Miete März", "SVWZ+Invoice 42 / Kunde 7781", "Gehalt", "Abschlag Strom 04/2025",
            "EREF+NOTPROVIDED KREF+X1 SVWZ+Bestellung 304-112233 vom 12.03.", "Lastschrift Versicherung Police 55-3",
            "Überweisung Urlaub, Anzahlung 50%", "Dauerauftrag Sparen", "Kartenzahlung 17.03. 12:40 Bäckerei"]
TYPES = ["NTRF", "NMSC", "NDDT", "NSTO", "NCHG", "FCHK", "NCMI"]
CODES = ["166", "105", "152", "177", "805", "020"]


def amount_mt(rng, cents):
    units, frac = divmod(abs(cents), 100)
    if frac == 0 and rng.random() < 0.5:
        return f"{units},"
    return f"{units},{frac:02d}"


def wrap86(rng, text):
    """Split the :86: content into lines of at most 27 characters (after the tag on the first line), anywhere."""
    out, first = [], True
    while text:
        n = rng.randint(10, 27) if not first else rng.randint(10, 23)
        out.append(text[:n])
        text = text[n:]
        first = False
    return out


def statement(rng, account, currency, seq, start, opening, unbalanced=False):
    lines = [f":20:{rng.choice(['STARTUMS', 'STARTUMSE', 'MT940-' + str(rng.randint(1000, 9999))])}",
             f":25:{account}", f":28C:{seq}"]
    d0 = start
    mark = "C" if opening >= 0 else "D"
    lines.append(f":60F:{mark}{d0:%y%m%d}{currency}{amount_mt(rng, abs(opening))}")
    rows, bal, d = [], opening, d0
    for _ in range(rng.randint(1, 12)):
        d += timedelta(days=rng.choice([0, 0, 1, 1, 2, 3]))
        booking = d + timedelta(days=rng.choice([0, 0, 0, 1, 2, -1, -2]))
        cents = rng.choice([rng.randint(1, 5000), rng.randint(1, 300000), rng.randint(1, 99) * 100])
        kind = rng.choices(["C", "D", "RC", "RD"], [5, 6, 1, 1])[0]
        signed = cents if kind in ("C", "RD") else -cents
        bal += signed
        ttype = rng.choice(TYPES)
        ref = rng.choice(["NONREF", f"{rng.randint(10**5, 10**9)}", "KREF" + str(rng.randint(100, 999)), "EREF/X-" + str(rng.randint(1, 99))])
        bank_ref = rng.choice(["", f"{rng.randint(10**6, 10**12)}", "B" + str(rng.randint(1000, 9999))])
        funds = rng.choice(["", "", "", "R"])
        entry = "" if (booking == d and rng.random() < 0.5) else f"{booking:%m%d}"
        line61 = f":61:{d:%y%m%d}{entry}{kind}{funds}{amount_mt(rng, cents)}{ttype}{ref}" + (f"//{bank_ref}" if bank_ref else "")
        lines.append(line61)
        if rng.random() < 0.4:
            lines.append(rng.choice(["/OCMT/EUR12,50/", "SUPPLEMENTARY", "/CHGS/EUR0,50/"]))
        name = rng.choice(NAMES)
        purpose = rng.choice(PURPOSES)
        if rng.random() < 0.8:   # structured :86:
            sep = "?"
            parts = [rng.choice(CODES), f"{sep}00{rng.choice(['SEPA-UEBERWEISUNG', 'LASTSCHRIFT', 'GUTSCHRIFT', 'ENTGELT'])}",
                     f"{sep}10{rng.randint(1000, 9999)}"]
            chunks = [purpose[i:i + 27] for i in range(0, len(purpose), 27)] or [""]
            for i, ch in enumerate(chunks[:10]):
                parts.append(f"{sep}{20 + i}{ch}")
            parts.append(f"{sep}30{rng.choice(['COLSDE33XXX', 'DEUTDEFFXXX', 'BYLADEM1001'])}")
            parts.append(f"{sep}31DE{rng.randint(10**19, 10**20 - 1)}")
            counterparty = name
            if name:
                n1, n2 = name[:27], name[27:]
                parts.append(f"{sep}32{n1}")
                if n2:
                    parts.append(f"{sep}33{n2}")
            if rng.random() < 0.3:
                parts.append(f"{sep}34{rng.randint(0, 999):03d}")
            text = "".join(parts)
            content_purpose = "".join(chunks[:10])
        else:
            text = purpose
            content_purpose, counterparty = purpose, ""
        wrapped = wrap86(rng, text)
        # a continuation line must not look like a new field
        while any(w.startswith(":") or w.startswith("-") for w in wrapped[1:]):
            wrapped = wrap86(rng, text)
        lines.append(":86:" + wrapped[0])
        lines.extend(wrapped[1:])
        rows.append({"value_date": d.isoformat(), "booking_date": booking.isoformat(),
                     "amount": f"{'-' if signed < 0 else ''}{abs(signed) // 100}.{abs(signed) % 100:02d}",
                     "type": ttype, "reference": ref, "bank_reference": bank_ref, "counterparty": counterparty,
                     "purpose": content_purpose})
    closing = bal + (rng.choice([-1, 1, 100, -2500]) if unbalanced else 0)
    mark = "C" if closing >= 0 else "D"
    lines.append(f":62F:{mark}{d:%y%m%d}{currency}{amount_mt(rng, abs(closing))}")
    if rng.random() < 0.5:
        lines.append(f":64:{mark}{d:%y%m%d}{currency}{amount_mt(rng, abs(closing))}")
    lines.append("-")
    return lines, rows, closing, d


HEADER = ["account", "statement", "booking_date", "value_date", "amount", "currency", "type", "reference",
          "bank_reference", "counterparty", "purpose"]


def file(rng, n_statements=4, unbalanced_share=0.0, year=None):
    """-> (bytes, expected CSV text, sorted list of 'unbalanced: ACCOUNT STATEMENT' lines)."""
    out_lines, table, bad = [], [], []
    accounts = [(rng.choice(["37040044/0532013000", "DE89370400440532013000", "50010517/648489890", "CH9300762011623852957"]),
                 rng.choice(["EUR", "EUR", "CHF", "USD"])) for _ in range(rng.randint(1, 3))]
    state = {}
    for k in range(n_statements):
        acc, cur = rng.choice(accounts)
        if acc not in state:
            y = year or rng.randint(2019, 2026)
            start = rng.choice([date(y, 12, rng.randint(24, 31)), date(y, rng.randint(1, 11), rng.randint(1, 28))])
            state[acc] = [start, rng.randint(-500000, 5000000), 0]
        start, opening, n = state[acc]
        n += 1
        seq = f"{n:05d}/001" if rng.random() < 0.7 else f"{n}/1"
        unb = rng.random() < unbalanced_share
        lines, rows, closing, last = statement(rng, acc, cur, seq, start, opening, unb)
        state[acc] = [last + timedelta(days=1), closing, n]
        out_lines.extend(lines)
        for r in rows:
            table.append([acc, seq, r["booking_date"], r["value_date"], r["amount"], cur, r["type"], r["reference"],
                          r["bank_reference"], r["counterparty"], r["purpose"]])
        if unb:
            bad.append(f"unbalanced: {acc} {seq}")
    eol = rng.choice(["\r\n", "\n"])
    data = (eol.join(out_lines) + eol).encode("latin-1", errors="strict")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(table)
    return data, buf.getvalue(), sorted(bad)
