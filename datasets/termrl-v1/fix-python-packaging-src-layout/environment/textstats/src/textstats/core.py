import re
from collections import Counter
from importlib import resources


def stopwords():
    text = resources.files("textstats").joinpath("data/stopwords.txt").read_text()
    return {w.strip() for w in text.splitlines() if w.strip()}


def top_words(text, n, drop_stopwords=True):
    words = re.findall(r"[a-z']+", text.lower())
    if drop_stopwords:
        stop = stopwords()
        words = [w for w in words if w not in stop]
    return sorted(Counter(words).items(), key=lambda kv: (-kv[1], kv[0]))[:n]
