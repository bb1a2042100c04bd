"""Shell-command classification: does a bash command look, check, run or change something?

The rubric judge (``rubric.py``) scores a way of working from these facts; this module only reads
commands. A compound command is split at ``&&``, ``||``, ``;`` and newlines, pipelines at ``|``;
quoted strings and heredoc bodies are set aside first (a ``>`` in Python code is no redirection).
"""

from __future__ import annotations

import re
import shlex

COMMANDS = re.compile(r"&&|\|\||;|\n")
"""Where a compound command splits into commands."""
REDIRECT = re.compile(r"(?<![<>&])\d?>>?(?!&)\s*([^\s;|&<>]+)")
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?([^\n]*)\n.*?\n\s*\1\b", re.S)
_MUTATING_WORDS = {"rm", "mv", "cp", "mkdir", "touch", "chmod", "chown", "ln", "truncate", "dd", "install", "patch",
                   "unzip", "gunzip", "gzip", "tee", "crontab", "useradd", "systemctl", "service", "rmdir", "rsync"}
_MUTATING_SUB = {"git": {"commit", "add", "checkout", "reset", "restore", "apply", "am", "cherry-pick", "merge",
                         "rebase", "stash", "revert", "switch", "rm", "mv", "tag", "clean", "init", "clone", "pull"},
                 "pip": {"install", "uninstall"}, "pip3": {"install", "uninstall"}, "npm": {"install", "ci"},
                 "apt": {"install", "remove"}, "apt-get": {"install", "remove"}}
_MINOR = {("git", "add"), ("git", "commit"), ("git", "tag")}
_READ_ONLY_WORDS = {"ls", "cat", "head", "tail", "less", "more", "find", "grep", "egrep", "rg", "wc", "file", "stat",
                    "pwd", "which", "whereis", "type", "tree", "du", "df", "env", "printenv", "ps", "id", "whoami",
                    "uname", "date", "echo", "printf", "awk", "sort", "uniq", "cut", "tr", "column", "jq", "xxd",
                    "od", "hexdump", "md5sum", "sha256sum", "zcat", "zgrep", "realpath", "readlink", "basename",
                    "dirname", "cd", "true", "nl", "comm", "sqlite3", "history", "man", "sed", "lsof", "netstat",
                    "ss", "curl", "dpkg", "apt-cache", "locale", "git", "pip", "pip3", "tar", "export", "set"}
_CHECK = re.compile(r"\b(pytest|unittest|py_compile|shellcheck|diff|cmp|make\s+(check|test)|(npm|cargo|go)\s+test|"
                    r"bash\s+-n)\b|\btest\s+-[a-z]\b|\[\s+-[a-z]\b")
SNIPPET = re.compile(r"\bpython3?\s+(-c\b|-\s*<<)")
PY_WRITES = re.compile(r"\.write\(|write_text|json\.dump\(|open\([^)]*['\"][wa]b?['\"]|shutil\.|os\.(rename|remove|"
                        r"replace|makedirs|mkdir|unlink)|to_csv|\.mkdir\(|\.unlink\(|\.rename\(")
_RUNNERS = {"python", "python3", "node", "ruby", "go", "cargo", "java", "gcc", "g++", "cc", "make", "bash", "sh",
            "perl", "javac", "rustc", "npm", "npx", "uv"}


def shell_words(segment: str) -> list[str]:
    """The words of one simple command, without leading ``VAR=x``, ``sudo``, ``time``, ``nohup``, ``timeout N``, ``env``."""
    try:
        words = shlex.split(segment, posix=True)
    except ValueError:
        words = segment.split()
    while words and (re.match(r"^\w+=", words[0]) or words[0] in ("sudo", "time", "nohup", "timeout", "env")):
        words = words[1:]
        if words and re.match(r"^\d+[smh]?$", words[0]):  # timeout 10 cmd
            words = words[1:]
    return words


def unquoted(command: str) -> str:
    """The command without heredoc bodies and quoted strings (a ``>`` in Python code is no redirection)."""
    return _QUOTED.sub("''", HEREDOC.sub(lambda m: f"<<{m.group(1)}{m.group(2)}", command))


def _pipeline_kind(pipeline: str, snippet_writes: bool) -> tuple[str, bool]:
    """(kind, minor) of one pipeline (quotes and heredoc bodies already removed)."""
    changes: list[bool] = []  # one entry per change: is it minor?
    changes += [t.startswith("/tmp/") for t in REDIRECT.findall(pipeline) if t != "/dev/null"]
    runs = False
    for stage in re.split(r"\|", pipeline):
        words = shell_words(stage.strip())
        if not words:
            continue
        head = words[0].rsplit("/", 1)[-1]
        sub = words[1] if len(words) > 1 else ""
        targets = [w for w in words[1:] if not w.startswith("-")]
        if head in _MUTATING_WORDS:
            changes.append(head == "chmod" or bool(targets) and all(t.startswith("/tmp/") for t in targets))
        elif head in ("sed", "perl") and any(w.startswith("-i") for w in words[1:]):
            changes.append(False)
        elif head == "tar" and re.match(r"^-?[a-z]*x", sub):
            changes.append(False)
        elif head in _MUTATING_SUB and sub in _MUTATING_SUB[head]:
            changes.append((head, sub) in _MINOR)
        elif head in _RUNNERS or words[0].startswith("./") or head not in _READ_ONLY_WORDS:
            runs = True
    if SNIPPET.search(pipeline) and snippet_writes:
        changes.append(False)
    if changes:
        return "mutate", all(changes)
    if _CHECK.search(pipeline) or SNIPPET.search(pipeline):
        return "check", False  # tests, comparisons, or a one-off snippet that only looks at a result
    return ("run" if runs else "inspect"), False


def bash_facts(command: str) -> tuple[str, bool, int, bool]:
    """(kind, minor, looks, verifies) of a shell command; a change anywhere makes it a change."""
    bare = unquoted(command)
    writes = bool(PY_WRITES.search(command))
    kinds = [_pipeline_kind(part, writes) for part in COMMANDS.split(bare) if part.strip()]
    if not kinds:
        return "inspect", False, 0, False
    changed = [i for i, (kind, _) in enumerate(kinds) if kind == "mutate"]
    if not changed:
        kind = "check" if any(k == "check" for k, _ in kinds) else "run" if any(k == "run" for k, _ in kinds) \
            else "inspect"
        return kind, False, min(2, len(kinds)), False
    minor = all(kinds[i][1] for i in changed)
    return "mutate", minor, min(2, changed[0]), changed[-1] < len(kinds) - 1


def bash_kind(command: str) -> tuple[str, bool]:
    """(kind, minor) of a shell command: see :func:`bash_facts`."""
    kind, minor, _, _ = bash_facts(command)
    return kind, minor
