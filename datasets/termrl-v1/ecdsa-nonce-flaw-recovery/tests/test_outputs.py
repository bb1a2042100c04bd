"""/app/nonce_audit.py on signing logs generated here, each with a fresh set of device keys and planted
nonce flaws (repeats, counter-affine nonces with gaps, nonces shared across devices, chains of them)
among sound devices that must not be reported."""
import json
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import ecgen  # noqa: E402

TOOL = "/app/nonce_audit.py"
RNG = random.Random(os.urandom(8))


def run(log, tmp_path, name="signing.log"):
    path = tmp_path / name
    path.write_text(log.render())
    r = subprocess.run([sys.executable, TOOL, str(path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert isinstance(out, dict), out
    for kid, d in out.items():
        assert isinstance(d, str) and re.fullmatch(r"[0-9a-f]{64}", d), (kid, d)
    return out


def expect(log, kids):
    return {k: format(log.keys[k], "064x") for k in kids}


def test_example_log():
    r = subprocess.run([sys.executable, TOOL, "/app/evidence/signing.log"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert sorted(out) == ["dev-6e1353", "dev-c43f17", "dev-df553b", "dev-f608eb"]
    keys = {}
    for line in open("/app/evidence/signing.log"):
        rec = json.loads(line)
        if rec["type"] == "key":
            keys[rec["kid"]] = (int(rec["qx"], 16), int(rec["qy"], 16))
    for kid, d in out.items():
        assert ecgen.mul(int(d, 16)) == keys[kid], kid


def test_repeated_nonces(tmp_path):
    log = ecgen.Log(RNG)
    rep = [log.repeater(RNG.randint(3, 6))[0] for _ in range(2)]
    for _ in range(3):
        log.sound(RNG.randint(2, 6))
    assert run(log, tmp_path) == expect(log, rep)


def test_counter_affine_nonces_with_gaps(tmp_path):
    log = ecgen.Log(RNG)
    aff = [log.affine(RNG.randint(3, 6))[0] for _ in range(2)]
    log.affine(2)          # two signatures only: not enough to pin the key down
    log.sound(6)
    log.sound(3)
    assert run(log, tmp_path) == expect(log, aff)


def test_nonce_shared_with_a_broken_device(tmp_path):
    log = ecgen.Log(RNG)
    a, ka = log.repeater(4)
    c, _ = log.sound(5, forced={RNG.randrange(5): RNG.choice(ka)})
    h, _ = log.affine(2, forced={1: RNG.choice(ka)})
    log.sound(4)
    assert run(log, tmp_path) == expect(log, [a, c, h])


def test_chain_of_shared_nonces_and_unbreakable_pairs(tmp_path):
    log = ecgen.Log(RNG)
    a, ka = log.affine(4)
    c, kc = log.sound(3, forced={0: ka[2]})
    d, kd = log.sound(4, forced={3: kc[1]})
    e, ke = log.sound(4, forced={2: kd[0]})
    # two sound devices that share one nonce with each other only: not recoverable
    f, kf = log.sound(3)
    log.sound(3, forced={1: kf[0]})
    assert run(log, tmp_path) == expect(log, [a, c, d, e])


def test_sound_devices_only(tmp_path):
    log = ecgen.Log(RNG)
    for _ in range(6):
        log.sound(RNG.randint(1, 7))
    assert run(log, tmp_path) == {}


def test_large_mixed_log(tmp_path):
    log = ecgen.Log(RNG)
    want = []
    for _ in range(2):
        want.append(log.repeater(RNG.randint(2, 5))[0])
    aff, kaff = log.affine(5)
    want.append(aff)
    c, kc = log.sound(4, forced={1: kaff[4]})
    want.append(c)
    want.append(log.affine(2, forced={0: kc[3]})[0])
    log.affine(2)
    f, kf = log.sound(2)
    log.sound(5, forced={4: kf[1]})
    for _ in range(4):
        log.sound(RNG.randint(1, 6))
    assert run(log, tmp_path) == expect(log, want)
