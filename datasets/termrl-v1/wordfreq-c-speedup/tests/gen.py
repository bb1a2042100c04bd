"""Texts for the tests: a Zipf-like vocabulary in mixed case, apostrophes, UTF-8 letters, digits,
runs longer than 63 bytes (several sharing their first 63 bytes), punctuation and odd bytes."""
import itertools

LETTERS = "abcdefghijklmnopqrstuvwxyz"
UTF8 = ["é", "ü", "ñ", "ø", "ß", "д", "ж", "λ", "日", "本", "\u00a0"]
SEPS = [" ", " ", " ", " ", "\n", ", ", ". ", "; ", " - ", "\t", "\r\n", " (", ") ", "!", "?\n", "\"", " / "]


def word(rng):
    n = rng.choice([1, 2, 3, 3, 4, 5, 5, 6, 7, 8, 9, 11, 14])
    w = "".join(rng.choice(LETTERS) for _ in range(n))
    r = rng.random()
    if r < 0.08:
        w = w[: rng.randint(0, len(w))] + "'" + w[rng.randint(0, len(w)):]
    elif r < 0.14:
        w = w[:2] + rng.choice(UTF8) + w[2:]
    elif r < 0.18:
        w += str(rng.randint(0, 99))
    return w


def vocabulary(rng, size):
    seen, out = set(), []
    while len(out) < size:
        w = word(rng)
        if w not in seen:
            seen.add(w)
            out.append(w)
    return out


def case(rng, w):
    r = rng.random()
    if r < 0.1:
        return w.upper()
    if r < 0.25:
        return w.capitalize()
    return w


def text(rng, tokens, vocab_size, extras=True):
    vocab = vocabulary(rng, vocab_size)
    forms = [case(rng, w) for w in vocab for _ in range(3)]
    weights = list(itertools.accumulate(1.0 / (k // 3 + 2) ** 1.05 for k in range(3 * vocab_size)))
    parts = [None] * (2 * tokens)
    parts[0::2] = rng.choices(forms, cum_weights=weights, k=tokens)
    parts[1::2] = rng.choices(SEPS, k=tokens)
    if extras:
        stem = "".join(rng.choice(LETTERS) for _ in range(63))
        for k in range(rng.randint(3, 8)):
            pos = rng.randrange(len(parts) // 2) * 2
            kind = k % 4
            if kind == 0:
                parts[pos] = stem + "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 40)))
            elif kind == 1:
                parts[pos] = stem[:62] + rng.choice(UTF8)
            elif kind == 2:
                parts[pos] = "'" * rng.randint(1, 4)
            else:
                parts[pos] = rng.choice(["O'NEIL", "'tis", "rock'n'roll", "''quoted''", "x"])
    return "".join(parts)
