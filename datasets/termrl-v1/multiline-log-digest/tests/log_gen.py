import random


def gen(seed, n=300):
    rng = random.Random(seed)
    out = ["*** log start ***", "stray line before the first entry"]
    loggers = ["app.web", "app.db", "worker", "app.web.auth", "jobs.nightly"]
    for k in range(n):
        ts = f"2024-05-{1 + k // 100:02d} {k % 24:02d}:{k % 60:02d}:{(k * 7) % 60:02d},{rng.randint(0, 999):03d}"
        lvl = rng.choice(["DEBUG", "INFO", "INFO", "WARN", "WARNING", "ERROR", "CRITICAL"])
        out.append(f"{ts} [{lvl}] {rng.choice(loggers)} - " + rng.choice(["request done took 12ms", "retrying", "x - y - z", ""]))
        if lvl in ("ERROR", "CRITICAL", "WARN") and rng.random() < 0.7:
            if rng.random() < 0.5:
                out.append("Traceback (most recent call last):")
                out.append('  File "app.py", line 10, in handler')
                out.append("    raise thing")
                out.append(rng.choice(["ValueError: bad value", "KeyError", "myapp.errors.QuotaExceededError: over limit",
                                       "RuntimeError: ValueError: nested text"]))
            else:
                out.append(rng.choice(["java.lang.IllegalStateException: boom", "org.x.DbException"]))
                out.append("\tat org.x.Foo.bar(Foo.java:10)")
                if rng.random() < 0.6:
                    out.append("Caused by: " + rng.choice(["java.io.IOException: disk", "java.net.SocketTimeoutException"]))
                    out.append("\t... 12 more")
        elif rng.random() < 0.05:
            out.append("   continuation text with Error inside but not a type")
    return "\n".join(out) + "\n"
