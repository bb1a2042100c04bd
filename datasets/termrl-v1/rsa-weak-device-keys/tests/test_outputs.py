import os
from pathlib import Path

import pytest

REC = Path("/app/recovered")


def test_weak_keys_list():
    assert Path("/app/weak_keys.txt").read_text().split() == ["sensor-02", "sensor-04", "sensor-05"]


def test_shared_prime_messages():
    assert (REC / "sensor-02.txt").read_bytes() == b"maintenance PIN for cabinet B7 is 44-1920-77\n"
    assert (REC / "sensor-05.txt").read_bytes() == b"firmware signing passphrase: Quiet Harbor Lantern\n"


def test_close_prime_message():
    assert (REC / "sensor-04.txt").read_bytes() == b"uplink pre-shared key: tangerine-orbit-5521\n"


def test_no_output_for_strong_key():
    assert sorted(os.listdir(REC)) == ["sensor-02.txt", "sensor-04.txt", "sensor-05.txt"]


def test_inputs_untouched():
    assert sorted(os.listdir("/app/keys")) == [f"sensor-0{i}.pub.pem" for i in range(1, 7)]
    assert sorted(os.listdir("/app/inbox")) == [f"sensor-0{i}.msg.b64" for i in (1, 2, 4, 5)]
