import collections
import os
import re

CONF = os.environ.get("TALLYD_CONF", "/etc/tallyd/tallyd.conf")
HERE = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(HERE, "VERSION")) as f:
        return f.read().strip()


def config():
    conf = {"stopwords": "", "top": "3"}
    with open(CONF) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                conf[k.strip()] = v.strip()
    return conf


def main(argv):
    if argv == ["--version"]:
        print(f"tallyd {version()}")
        return 0
    conf = config()
    stop = set(conf["stopwords"].split(","))
    counts = collections.Counter()
    for path in argv:
        with open(path) as f:
            counts.update(w for w in re.findall(r"[a-z']+", f.read().lower()) if w not in stop)
    for word, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[: int(conf["top"])]:
        print(f"{n} {word}")
    return 0
