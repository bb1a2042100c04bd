"""/app/codebreaker plays against referees written here: honest ones with codes drawn at test time, and
adversarial ones that never commit to a code (each answer keeps a large set of codes consistent). Every
game must be won in at most 5 guesses, within one process, over the line protocol."""
import itertools
import os
import queue
import random
import subprocess
import threading
from collections import Counter

import pytest

BOT = "/app/codebreaker"
CODES = ["".join(p) for p in itertools.product("123456", repeat=4)]
RNG = random.Random(os.urandom(8))
REPLY_TIMEOUT = 120  # a hang guard, not a speed bar


def score(guess, code):
    black = sum(a == b for a, b in zip(guess, code))
    cg, cc = Counter(guess), Counter(code)
    return black, sum(min(cg[c], cc[c]) for c in cg) - black


class Bot:
    def __init__(self):
        assert os.access(BOT, os.X_OK), f"{BOT} is missing or not executable"
        self.proc = subprocess.Popen([BOT], cwd="/app", stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def guess(self):
        try:
            line = self.lines.get(timeout=REPLY_TIMEOUT)
        except queue.Empty:
            pytest.fail(f"no guess within {REPLY_TIMEOUT} s")
        assert line is not None, "the bot closed its output in the middle of a game"
        g = line.rstrip("\n")
        assert len(g) == 4 and all(c in "123456" for c in g), f"malformed guess line {line!r}"
        return g

    def finish(self, how="end"):
        if how == "end":
            self.send("end")
        self.proc.stdin.close()
        try:
            rc = self.proc.wait(timeout=REPLY_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            pytest.fail(f"the bot did not exit after {how}")
        rest = []
        while True:
            line = self.lines.get(timeout=REPLY_TIMEOUT)
            if line is None:
                break
            rest.append(line)
        assert rc == 0, f"exit status {rc} after {how}"
        assert rest == [], f"output after the last game: {rest[:3]}"

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()


@pytest.fixture()
def bot():
    b = Bot()
    yield b
    b.kill()


def play_honest(bot, code):
    bot.send("new")
    seen = []
    for n in range(1, 6):
        g = bot.guess()
        seen.append(g)
        b, w = score(g, code)
        bot.send(f"{b} {w}")
        if b == 4:
            return n
    pytest.fail(f"code {code}: not found in 5 guesses ({' '.join(seen)})")


def play_adversary(bot, choose):
    """The referee keeps every code consistent with its answers and answers with one class of them."""
    bot.send("new")
    alive, seen = list(CODES), []
    for n in range(1, 6):
        g = bot.guess()
        parts = {}
        for c in alive:
            parts.setdefault(score(g, c), []).append(c)
        keys = sorted(k for k in parts if k != (4, 0)) or [(4, 0)]
        answer = choose(keys, parts)
        alive = parts[answer]
        seen.append(f"{g}:{answer[0]}{answer[1]}")
        bot.send(f"{answer[0]} {answer[1]}")
        if answer == (4, 0):
            return n
    pytest.fail(f"adversarial game not won in 5 guesses ({' '.join(seen)}; {len(alive)} codes still possible)")


def largest_class(rng):
    def choose(keys, parts):
        top = max(len(parts[k]) for k in keys)
        return rng.choice([k for k in keys if len(parts[k]) == top])
    return choose


def weighted_class(rng):
    def choose(keys, parts):
        return rng.choices(keys, weights=[len(parts[k]) ** 2 for k in keys])[0]
    return choose


def test_honest_games_with_random_codes(bot):
    for code in RNG.sample(CODES, 15):
        play_honest(bot, code)
    bot.finish()


def test_every_shape_of_code(bot):
    """aaaa, aaab, aabb, aabc, abcd in random colours and orders: repeated colours are not special cases."""
    for shape in ("aaaa", "aaab", "aabb", "aabc", "abcd", "abca", "abbb"):
        colours = RNG.sample("123456", 4)
        code = list(shape.translate(str.maketrans("abcd", "".join(colours))))
        RNG.shuffle(code)
        play_honest(bot, "".join(code))
    bot.finish()


def test_adversary_keeping_the_largest_class(bot):
    rng = random.Random(RNG.random())
    for _ in range(8):
        play_adversary(bot, largest_class(rng))
    bot.finish()


def test_adversary_wandering_through_large_classes(bot):
    rng = random.Random(RNG.random())
    for _ in range(8):
        play_adversary(bot, weighted_class(rng))
    bot.finish()


def test_mixed_session_starts_each_game_afresh(bot):
    rng = random.Random(RNG.random())
    for i in range(12):
        if i % 3 == 2:
            play_adversary(bot, largest_class(rng))
        else:
            play_honest(bot, RNG.choice(CODES))
    bot.finish()


def test_end_of_input_exits_cleanly(bot):
    play_honest(bot, RNG.choice(CODES))
    play_adversary(bot, largest_class(random.Random(RNG.random())))
    bot.finish(how="end of input")
