"""Port one main commit onto the current release branch by meaning.

usage: port.py PRE SUBJECT  -- PRE is the branch commit before the pick; writes the resolved files into the
working tree and prints their paths.
"""
import subprocess
import sys

pre, subject = sys.argv[1], sys.argv[2]


def show(path):
    return subprocess.run(["git", "show", f"{pre}:{path}"], check=True, capture_output=True, text=True).stdout


def sub(text, old, new):
    assert old in text, (subject, old)
    return text.replace(old, new, 1)


def size(text):
    if subject == "Keep the sign of negative sizes in human_size":
        text = sub(text, "    value = n\n", '    value = abs(n)\n    sign = "-" if n < 0 else ""\n')
        if 'return "%.1f %s" % (value, UNITS[i])' in text:
            return text.replace('return "%.1f %s" % (value, UNITS[i])', 'return "%s%.1f %s" % (sign, value, UNITS[i])')
        return sub(text, 'return f"{value:.1f} {UNITS[i]}"', 'return f"{sign}{value:.1f} {UNITS[i]}"')
    if subject == "Print whole bytes without a decimal point":
        return sub(text, '    return f"{sign}{value:.1f} {UNITS[i]}"',
                   '    if i == 0:\n        return f"{sign}{value} B"\n    return f"{sign}{value:.1f} {UNITS[i]}"')
    return None


def duration(text):
    if subject == "Accept uppercase unit letters in parse_duration":
        return sub(text, "    for ch in text:", "    for ch in text.lower():")
    if subject == "Reject durations that end in a number or are empty":
        return sub(text, "    return total\n",
                   '    if num or not text:\n        raise ValueError("bad duration: %r" % text)\n    return total\n')
    if subject == "Raise ValueError for unknown duration units":
        return sub(text, "            total += int(num) * FACTORS[ch]\n",
                   "            if ch not in FACTORS:\n"
                   '                raise ValueError("unknown unit %r in %r" % (ch, text))\n'
                   "            total += int(num) * FACTORS[ch]\n")
    if subject == "Treat a bare number as seconds":
        return sub(text, '    """\'1h30m\', \'45s\', \'2m\' -> seconds"""\n',
                   '    """\'1h30m\', \'45s\', \'2m\' -> seconds"""\n    if text.isdigit():\n        return int(text)\n')
    return None


def changelog(text):
    if "## Unreleased\n" not in text:
        text = sub(text, "# Changelog\n\n", "# Changelog\n\n## Unreleased\n\n")
    return text.replace("## Unreleased\n", f"## Unreleased\n- {subject}\n", 1)


for path, fn in (("qty/size.py", size), ("qty/duration.py", duration), ("CHANGELOG.md", changelog)):
    new = fn(show(path))
    if new is not None:
        with open(path, "w") as fh:
            fh.write(new)
        print(path)
