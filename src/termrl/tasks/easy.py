"""An easy procedural family for showing learning with a tiny model on CPU.

``easy-files``: put a given word into /app/answer.txt, with the command named in the instruction
(difficulty 1); the command to run is only in a file the instruction names, so the agent must read
it and then act on what it read (2); or a line count, nothing named (3). One shell command can
solve each instance. The untrained 135M-parameter model sometimes does level 1 (about 1 in 8 to 1
in 4 samples), so a short GRPO run has signal there; it did level 2 in 0 of 32 samples, so level 2
is reached through a curriculum from level 1: level 2's note is worded like a level-1 instruction,
so what level 1 teaches (run the command you are shown) carries over once the agent reads the note.
``bench/learning.py --difficulties 1 2 --curriculum --promote-at 0.4``: level 2 held-out 0/32 ->
28/32 after 14 steps (60 min, 2 CPU cores).
"""

from __future__ import annotations

import random
from pathlib import Path

WORDS = ("amber", "basalt", "cobalt", "dune", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
         "kelp", "lagoon", "meadow", "nickel", "onyx", "pebble", "quartz", "river", "saffron", "tundra",
         "umber", "violet", "willow", "xenon", "yarrow", "zephyr")

LABELS = {1: "easy", 2: "medium", 3: "hard"}
"""The difficulty label of each level in task.toml (a curriculum stages on it)."""

TEST_SH = """#!/bin/bash
mkdir -p /logs/verifier
python3 -m pytest --junitxml=/logs/verifier/junit.xml -rA /tests/test_outputs.py
if [ $? -eq 0 ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
"""

TESTS = """from pathlib import Path

ANSWER = Path("/app/answer.txt")
EXPECTED = {expected!r}


def test_answer_file_exists():
    assert ANSWER.is_file()


def test_answer_is_correct():
    assert ANSWER.read_text().strip() == EXPECTED


def test_answer_is_one_line():
    assert len(ANSWER.read_text().strip().splitlines()) == 1


def test_answer_has_nothing_else():
    assert ANSWER.read_text().strip().split() == [EXPECTED]
"""


def generate_easy(seed: int, difficulty: int, out: Path) -> Path:
    if difficulty not in (1, 2, 3):
        raise ValueError(f"easy-files: difficulty must be 1, 2 or 3, got {difficulty}")
    rng = random.Random(f"easy-files/{seed}/{difficulty}")
    word = rng.choice(WORDS) + str(rng.randint(10, 99))
    task = out / f"easy-files-s{seed}-d{difficulty}"
    for sub in ("environment", "solution", "tests"):
        (task / sub).mkdir(parents=True, exist_ok=True)
    dockerfile = "FROM termrl/base:bookworm\nWORKDIR /app\n"
    if difficulty == 1:
        # The hint makes the family learnable by a 135M model: the skill is acting on an instruction
        # in the expected format, and finishing.
        instruction = (f"Create the file /app/answer.txt containing the word {word}. "
                       f"This shell command does it: echo {word} > /app/answer.txt")
        expected, solve, wrong = word, f"echo {word} > /app/answer.txt\n", f"echo {word[:-1]} > /app/answer.txt\n"
    elif difficulty == 2:
        # Two actions, and the second is what the first one showed: the word (and the command) is only
        # in the file, so an agent that does not read it, or does not act on what it read, fails.
        (task / "environment" / "note.txt").write_text(
            f"Create the file /app/answer.txt containing the word {word}.\n"
            f"This shell command does it: echo {word} > /app/answer.txt\n")
        dockerfile += "COPY note.txt /app/note.txt\n"
        instruction = ("The file /app/note.txt says what to do. First read it with this command: cat /app/note.txt\n"
                       "Then run the command it gives.")
        expected = word
        solve = "sed -n 's/^This shell command does it: //p' /app/note.txt | sh\n"
        wrong = "cp /app/note.txt /app/answer.txt\n"
    else:
        n = rng.randint(5, 40)
        (task / "environment" / "data.txt").write_text("".join(f"{rng.choice(WORDS)}\n" for _ in range(n)))
        dockerfile += "COPY data.txt /app/data.txt\n"
        instruction = "Write the number of lines in /app/data.txt into /app/answer.txt."
        expected = str(n)
        solve = "wc -l < /app/data.txt > /app/answer.txt\n"
        wrong = "wc -l /app/data.txt > /app/answer.txt\n"
    (task / "instruction.md").write_text(instruction + "\n")
    (task / "task.toml").write_text(
        f'version = "1.0"\n[metadata]\nauthor_name = "termrl"\ndifficulty = "{LABELS[difficulty]}"\n'
        'category = "file-operations"\n'
        'tags = ["generated", "easy-files"]\n[agent]\ntimeout_sec = 120.0\n[verifier]\ntimeout_sec = 60.0\n'
        "[environment]\ncpus = 1\nmemory_mb = 512\nallow_internet = false\n")
    (task / "environment" / "Dockerfile").write_text(dockerfile)
    (task / "solution" / "solve.sh").write_text("#!/bin/bash\n" + solve)
    (task / "solution" / "wrong_near_miss.sh").write_text("#!/bin/bash\n" + wrong)
    (task / "tests" / "test.sh").write_text(TEST_SH)
    (task / "tests" / "test_outputs.py").write_text(TESTS.format(expected=expected))
    return task
