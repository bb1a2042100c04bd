"""Rosters for the tests: people's names in several scripts, each with a few variants (typos,
swapped neighbours, accents, case, spacing, casefold expansions such as ß -> ss), plus comments and
blank lines."""

FIRST = ["anna", "maria", "jose", "josé", "luis", "lucia", "lucía", "jurgen", "jürgen", "søren", "zoë",
         "francois", "françois", "mohammed", "muhammad", "aisha", "olga", "ольга", "иван", "ivan", "dmitri",
         "nikolaos", "νίκος", "γιώργος", "yusuf", "chen", "wei", "li", "ana", "joão", "joao", "renée",
         "björn", "bjorn", "ingrid", "siobhán", "siobhan", "padraig", "kateřina", "katerina", "łukasz",
         "lukasz", "małgorzata", "emma", "noah", "liam", "olivia", "sophia", "mateo", "hugo", "chloé",
         "élodie", "aleksandr", "александр", "ömer", "omer", "şule", "gül", "ewa", "marta", "piotr"]
LAST = ["müller", "mueller", "muller", "straße", "strasse", "schmidt", "schmitt", "gonzález", "gonzalez",
        "rodríguez", "rodriguez", "dubois", "lefèvre", "lefevre", "novák", "novak", "kowalski", "nowak",
        "иванов", "ivanov", "петрова", "petrova", "παπαδόπουλος", "papadopoulos", "οδυσσέας", "oconnor",
        "o'connor", "ó conchobhair", "van der berg", "vandenberg", "de la cruz", "delacruz", "nguyen",
        "nguyễn", "tanaka", "suzuki", "yılmaz", "yilmaz", "çelik", "celik", "andersson", "andersen",
        "johansson", "lindqvist", "hernández", "hernandez", "fernandes", "fernández", "zhang", "wang",
        "kim", "park", "ng", "o", "øvergård", "overgaard", "kuznetsova", "kuznetsov", "großmann", "grossmann"]
TITLE = ["", "", "", "", "dr ", "mr ", "ms ", "prof "]
ALPHA = "abcdefghijklmnopqrstuvwxyzéèüöäßçñøłşıσςεοа"


def _case(rng, s):
    r = rng.random()
    if r < 0.4:
        return " ".join(w[:1].upper() + w[1:] for w in s.split(" "))
    if r < 0.55:
        return s.upper()
    return s


def _typo(rng, s):
    if not s:
        return rng.choice(ALPHA)
    i = rng.randrange(len(s))
    op = rng.random()
    if op < 0.25:
        return s[:i] + rng.choice(ALPHA) + s[i + 1:]
    if op < 0.45:
        return s[:i] + s[i + 1:]
    if op < 0.65:
        return s[:i] + rng.choice(ALPHA) + s[i:]
    if op < 0.9 and len(s) > 1:
        i = min(i, len(s) - 2)
        return s[:i] + s[i + 1] + s[i] + s[i + 2:]
    return s + rng.choice(["", " ", "ß", "ss", "σ", "ς"])


def person(rng):
    return rng.choice(TITLE) + rng.choice(FIRST) + " " + rng.choice(LAST)


def variant(rng, s):
    for _ in range(rng.choice([0, 1, 1, 1, 2, 2, 3])):
        s = _typo(rng, s)
    s = _case(rng, s)
    if rng.random() < 0.15:
        s = "  " + s.replace(" ", rng.choice(["  ", "\u00a0", " \t "])) + " "
    return s


def names(rng, n, dup=0.5):
    """n names: people drawn at random, and variants of earlier ones (share dup)."""
    out = []
    while len(out) < n:
        if out and rng.random() < dup:
            out.append(variant(rng, rng.choice(out)))
        else:
            out.append(variant(rng, person(rng)))
    return out


def roster(rng, n, dup=0.5, messy=True):
    ids = rng.sample(range(10 ** 5, 10 ** 6), n)
    lines = []
    for k, name in enumerate(names(rng, n, dup)):
        if messy and rng.random() < 0.03:
            lines.append(rng.choice(["", "# imported", "   "]))
        ident = rng.choice(["P", "E", "x-"]) + str(ids[k])
        lines.append(f"{ident}\t{name}")
    return "\n".join(lines) + "\n"
