"""Renders customer-ledger print reports (test side only) from transaction rows."""
import random
from datetime import date, timedelta
from decimal import Decimal

W = 110
COLS = [("ACCT", 8), ("CUSTOMER NAME", 26), ("DOC DATE", 8), ("DOC NO", 10), ("DESCRIPTION", 18),
        ("DEBIT", 15), ("CREDIT", 15)]
WORDS = ["FREIGHT", "CHARGES", "SURCHARGE", "Q1", "INVOICE", "RETURN", "PALLETS", "DAMAGED", "GOODS", "CREDIT",
         "NOTE", "REBATE", "VOLUME", "2025", "REF", "1,234.50", "ADJ", "PAYMENT", "THANK", "YOU", "BANK", "TRANSFER",
         "SEPA", "DIRECT", "DEBIT", "FEE", "LATE", "INTEREST", "8%", "REVERSAL", "OF", "INV", "SAMPLE", "STOCK",
         "CARRIED", "FORWARD", "TOTAL", "BALANCE", "-", "&", "(PART)", "KG", "450.00", "CR"]
NAMES = ["HARTMANN & SOEHNE GMBH", "TOTAL FITNESS LTD", "NORDIC PAPER AB", "O'BRIEN BROS", "ACME CORP",
         "CARRIED AWAY TRAVEL", "BALANCE YOGA STUDIO", "VAN DER BERG LOGISTICS B.V.", "PAGE & TURNER BOOKS",
         "ZHOU TRADING CO", "MUELLER-LUEDENSCHEIDT WERKZEUGBAU", "REPORT MEDIA SA", "END OF LINE FURNITURE",
         "A", "SMITH, JONES AND PARTNERS LLP", "BROUGHT FORWARD LTD", "FORWARD MOTION INC"]
COMPANIES = ["ACME WHOLESALE LTD", "NORTHWIND TRADING PLC", "GRUBER HANDELS GMBH", "BLUE RIVER SUPPLY CO"]


def money(x):
    if x == 0:
        return ""
    s = f"{abs(x):,.2f}"
    return s + "-" if x < 0 else s


def wrap(text, width=18):
    lines, cur = [], ""
    for w in text.split():
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    lines.append(cur)
    return lines


def row_line(acct, name, dt, doc, desc, debit, credit):
    vals = [acct, name, dt, doc, desc]
    s = " ".join(f"{v:<{w}}" for v, (_, w) in zip(vals, COLS))
    s += " " + f"{debit:>15}" + " " + f"{credit:>15}"
    return s.rstrip()


def generate(seed, n_accounts=None):
    rng = random.Random(seed)
    accounts = []
    n_accounts = n_accounts or rng.randint(8, 25)
    ids = sorted(rng.sample(range(1, 99999999), n_accounts))
    for a in ids:
        name = rng.choice(NAMES)
        if rng.random() < 0.3:
            name = name + " " + rng.choice(["(UK)", "INTL", "HOLDINGS", "NO 2", "EUROPE DIVISION WEST"])
        txns = []
        d = date(2025, rng.randint(1, 12), rng.randint(1, 28))
        for _ in range(rng.choice([1, 1, 2, 3, 4, 6, 9, 14])):
            d += timedelta(days=rng.randint(0, 20))
            desc = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 9)))
            cents = rng.choice([rng.randrange(1, 10**5), rng.randrange(10**5, 10**7), rng.randrange(1, 10**9)])
            amt = Decimal(cents) / 100
            kind = rng.choices(["debit", "credit", "neg_debit", "neg_credit"], [6, 4, 1, 1])[0]
            doc = rng.choice(["INV-", "CN-", "PAY-", "JNL"]) + str(rng.randrange(10**5))
            txns.append({"date": d, "doc": doc, "desc": desc,
                         "debit": amt if kind == "debit" else -amt if kind == "neg_debit" else Decimal(0),
                         "credit": amt if kind == "credit" else -amt if kind == "neg_credit" else Decimal(0)})
        accounts.append((f"{a:08d}", name, txns))
    return accounts


def render(seed, accounts, page_len=None):
    rng = random.Random(seed * 7 + 1)
    company = rng.choice(COMPANIES)
    page_len = page_len or rng.randint(16, 60)
    run = date(2026, rng.randint(1, 12), rng.randint(1, 28))
    branch = rng.choice(["NORTH-EAST (07)", "HEAD OFFICE (01)", "EXPORT (12)"])
    pages = []
    cur = []
    tot_d = tot_c = Decimal(0)

    def header():
        n = len(pages) + 1
        h = [f"{company:<40}{'CUSTOMER LEDGER':^30}{'PAGE':>34}{n:>6}".rstrip(),
             f"RUN DATE {run:%d/%m/%y}{'BRANCH: ' + branch:>{W - 17}}".rstrip(),
             "=" * W,
             row_line(*[c for c, _ in COLS[:5]], "DEBIT", "CREDIT"),
             " ".join("-" * w for _, w in COLS)]
        if pages:
            h.append(row_line("", "BROUGHT FORWARD", "", "", "", money(tot_d), money(tot_c)))
        return h

    def room(k):  # k body lines + carried-forward line
        return len(cur) + k + 1 <= page_len

    def new_page():
        nonlocal cur
        cur.append(row_line("", "CARRIED FORWARD", "", "", "", money(tot_d), money(tot_c)))
        pages.append(cur)
        cur = header()

    cur = header()
    for acct, name, txns in accounts:
        first = True
        for t in txns:
            d_lines = wrap(t["desc"])
            if not room(len(d_lines)):
                new_page()
                first_on_page = True
            else:
                first_on_page = False
            show = first or first_on_page
            nm = name[:26] if first else "  ...CONT'D"
            cur.append(row_line(acct if show else "", nm if show else "", f"{t['date']:%d/%m/%y}", t["doc"],
                                d_lines[0], money(t["debit"]), money(t["credit"])))
            for extra in d_lines[1:]:
                cur.append(row_line("", "", "", "", extra, "", ""))
            tot_d += t["debit"]
            tot_c += t["credit"]
            first = False
        sd = sum(t["debit"] for t in txns)
        sc = sum(t["credit"] for t in txns)
        if not room(2):
            new_page()
        cur.append(row_line("", "ACCOUNT TOTAL", "", "", "", money(sd), money(sc)))
        cur.append("")
    if not room(2):
        new_page()
    cur.append(row_line("", "REPORT TOTAL", "", "", "", money(tot_d), money(tot_c)))
    cur.append("*** END OF REPORT ***")
    pages.append(cur)
    return "\n\f".join("\n".join(p) for p in pages) + "\n"


def expected_csv(accounts):
    out = ["account,customer,date,doc_no,description,amount"]
    for acct, name, txns in accounts:
        for t in txns:
            nm = name[:26].rstrip()
            cells = [acct, nm, t["date"].isoformat(), t["doc"], " ".join(t["desc"].split()),
                     f"{t['debit'] - t['credit']:.2f}"]
            out.append(",".join(f'"{c}"' if any(ch in c for ch in ',"') else c for c in cells))
    return "\n".join(out) + "\n"
