import json
import subprocess
from pathlib import Path

import pytest

TOOL = "/app/fwsim"
GIVEN = "/app/firewall/rules.v4"

PACKETS_1 = ['{"chain":"INPUT","in":"lo","out":null,"src":"127.0.0.1","dst":"127.0.0.1","proto":"tcp","sport":5000,"dport":6000,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"8.8.8.8","dst":"10.0.0.5","proto":"tcp","sport":443,"dport":50000,"state":"ESTABLISHED"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"8.8.8.8","dst":"10.0.0.5","proto":"tcp","sport":443,"dport":50000,"state":"INVALID"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"8.8.8.8","dst":"10.0.0.5","proto":"icmp","sport":null,"dport":null,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"203.0.113.9","dst":"10.0.0.5","proto":"tcp","sport":40000,"dport":443,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"8.8.4.4","dst":"10.0.0.5","proto":"tcp","sport":40000,"dport":443,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"8.8.4.4","dst":"10.0.0.5","proto":"tcp","sport":40000,"dport":8080,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"10.3.3.3","dst":"10.0.0.5","proto":"tcp","sport":40000,"dport":8099,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"8.8.4.4","dst":"10.0.0.5","proto":"tcp","sport":40000,"dport":8100,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"10.20.5.5","dst":"10.0.0.5","proto":"tcp","sport":40000,"dport":22,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"198.51.100.7","dst":"10.0.0.5","proto":"tcp","sport":40000,"dport":22,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"198.51.100.8","dst":"10.0.0.5","proto":"tcp","sport":40000,"dport":22,"state":"NEW"}', '{"chain":"INPUT","in":"eth1","out":null,"src":"198.51.100.8","dst":"10.0.0.5","proto":"tcp","sport":40000,"dport":22,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"10.0.0.2","dst":"10.0.0.5","proto":"udp","sport":53,"dport":33000,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"10.0.0.3","dst":"10.0.0.5","proto":"udp","sport":53,"dport":33000,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"172.16.0.1","dst":"10.0.0.5","proto":"udp","sport":5000,"dport":161,"state":"NEW"}', '{"chain":"INPUT","in":"eth1","out":null,"src":"10.9.9.9","dst":"10.0.0.5","proto":"udp","sport":5000,"dport":161,"state":"NEW"}', '{"chain":"INPUT","in":"eth1","out":null,"src":"172.16.0.1","dst":"10.0.0.5","proto":"udp","sport":5000,"dport":9999,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"172.16.0.1","dst":"10.0.0.5","proto":"tcp","sport":5000,"dport":1023,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"172.16.0.1","dst":"10.0.0.5","proto":"tcp","sport":5000,"dport":1024,"state":"NEW"}', '{"chain":"INPUT","in":"wlan0","out":null,"src":"172.16.0.1","dst":"10.0.0.5","proto":"tcp","sport":5000,"dport":3000,"state":"NEW"}', '{"chain":"FORWARD","in":"eth1","out":"eth0","src":"10.1.1.1","dst":"1.1.1.1","proto":"tcp","sport":5000,"dport":25,"state":"NEW"}', '{"chain":"FORWARD","in":"eth0","out":"eth1","src":"1.1.1.1","dst":"10.1.1.1","proto":"tcp","sport":25,"dport":5000,"state":"NEW"}', '{"chain":"FORWARD","in":"eth0","out":"eth1","src":"1.1.1.1","dst":"10.1.1.1","proto":"tcp","sport":25,"dport":5000,"state":"RELATED"}', '{"chain":"FORWARD","in":"eth2","out":"tun0","src":"10.1.1.1","dst":"10.8.0.1","proto":"tcp","sport":5000,"dport":443,"state":"NEW"}', '{"chain":"FORWARD","in":"eth2","out":"tun0","src":"10.1.1.1","dst":"10.8.0.1","proto":"tcp","sport":5000,"dport":465,"state":"NEW"}', '{"chain":"FORWARD","in":"eth2","out":"tun0","src":"10.1.1.1","dst":"10.8.0.1","proto":"udp","sport":5000,"dport":443,"state":"NEW"}', '{"chain":"OUTPUT","in":null,"out":"eth0","src":"10.0.0.5","dst":"1.1.1.1","proto":"tcp","sport":5000,"dport":25,"state":"NEW"}', '{"chain":"OUTPUT","in":null,"out":"eth0","src":"10.0.0.5","dst":"192.0.2.77","proto":"udp","sport":5000,"dport":53,"state":"NEW"}', '{"chain":"OUTPUT","in":null,"out":"eth1","src":"10.0.0.5","dst":"1.1.1.1","proto":"tcp","sport":5000,"dport":25,"state":"NEW"}']
EXPECTED_1 = ['ACCEPT INPUT:1', 'ACCEPT INPUT:2', 'DROP INPUT:3', 'ACCEPT INPUT:4', 'DROP LOGDROP:2', 'ACCEPT WEB:3', 'REJECT WEB:2', 'ACCEPT WEB:3', 'REJECT INPUT:10', 'ACCEPT SSH_IN:1', 'ACCEPT SSH_IN:2', 'DROP INPUT:policy', 'DROP INPUT:policy', 'ACCEPT INPUT:7', 'DROP INPUT:policy', 'DROP LOGDROP:2', 'ACCEPT INPUT:9', 'ACCEPT INPUT:9', 'DROP INPUT:policy', 'REJECT INPUT:10', 'DROP INPUT:policy', 'ACCEPT FORWARD:1', 'DROP FORWARD:policy', 'ACCEPT FORWARD:2', 'ACCEPT FORWARD:3', 'DROP FORWARD:policy', 'DROP FORWARD:policy', 'REJECT OUTPUT:1', 'DROP OUTPUT:2', 'ACCEPT OUTPUT:policy']

RULES_2 = '*filter\n:INPUT ACCEPT [0:0]\n:FORWARD ACCEPT [0:0]\n:OUTPUT DROP [0:0]\n:A - [0:0]\n:B - [0:0]\n-A INPUT -p all -s 192.168.0.0/16 -j A\n-A INPUT -m comment --comment "keep ! this -j DROP text inert" -p udp -m udp ! --sport 53 --dport 53 -j DROP\n-A INPUT ! -i eth+ -p tcp -j REJECT\n-A INPUT -p tcp -m multiport --ports 6000:6010,7000 -j DROP\n-A A -p tcp -m tcp --sport :1023 -j RETURN\n-A A -s 192.168.1.0/24\n-A A -s 192.168.1.0/24 -j B\n-A A -p udp -j DROP\n-A B -p tcp -m tcp --dport 1024: -j ACCEPT\n-A B -j RETURN\n-A B -j DROP\n-A OUTPUT -o lo -j ACCEPT\n-A OUTPUT -m state --state ESTABLISHED -j ACCEPT\nCOMMIT\n'
PACKETS_2 = ['{"chain":"INPUT","in":"eth0","out":null,"src":"192.168.1.5","dst":"10.0.0.1","proto":"tcp","sport":80,"dport":5000,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"192.168.1.5","dst":"10.0.0.1","proto":"tcp","sport":2000,"dport":5000,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"192.168.1.5","dst":"10.0.0.1","proto":"tcp","sport":2000,"dport":80,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"192.168.1.5","dst":"10.0.0.1","proto":"udp","sport":2000,"dport":80,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"192.168.2.5","dst":"10.0.0.1","proto":"udp","sport":2000,"dport":80,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"192.168.2.5","dst":"10.0.0.1","proto":"icmp","state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"8.8.8.8","dst":"10.0.0.1","proto":"udp","sport":5353,"dport":53,"state":"NEW"}', '{"chain":"INPUT","in":"eth0","out":null,"src":"8.8.8.8","dst":"10.0.0.1","proto":"udp","sport":53,"dport":53,"state":"NEW"}', '{"chain":"INPUT","in":"wg0","out":null,"src":"8.8.8.8","dst":"10.0.0.1","proto":"tcp","sport":1000,"dport":22,"state":"NEW"}', '{"chain":"INPUT","in":"wg0","out":null,"src":"8.8.8.8","dst":"10.0.0.1","proto":"udp","sport":1000,"dport":22,"state":"NEW"}', '{"chain":"INPUT","in":"eth3","out":null,"src":"8.8.8.8","dst":"10.0.0.1","proto":"tcp","sport":7000,"dport":22,"state":"NEW"}', '{"chain":"INPUT","in":"eth3","out":null,"src":"8.8.8.8","dst":"10.0.0.1","proto":"tcp","sport":3000,"dport":6005,"state":"NEW"}', '{"chain":"INPUT","in":"eth3","out":null,"src":"8.8.8.8","dst":"10.0.0.1","proto":"tcp","sport":3000,"dport":6011,"state":"NEW"}', '{"chain":"OUTPUT","in":null,"out":"lo","src":"127.0.0.1","dst":"127.0.0.1","proto":"tcp","sport":3000,"dport":6011,"state":"NEW"}', '{"chain":"OUTPUT","in":null,"out":"eth0","src":"10.0.0.1","dst":"8.8.8.8","proto":"tcp","sport":3000,"dport":443,"state":"ESTABLISHED"}', '{"chain":"OUTPUT","in":null,"out":"eth0","src":"10.0.0.1","dst":"8.8.8.8","proto":"tcp","sport":3000,"dport":443,"state":"NEW"}', '{"chain":"FORWARD","in":"eth0","out":"eth1","src":"10.0.0.1","dst":"8.8.8.8","proto":"udp","sport":3000,"dport":443,"state":"NEW"}']
EXPECTED_2 = ['ACCEPT INPUT:policy', 'ACCEPT B:1', 'ACCEPT INPUT:policy', 'DROP A:4', 'DROP A:4', 'ACCEPT INPUT:policy', 'DROP INPUT:2', 'ACCEPT INPUT:policy', 'REJECT INPUT:3', 'ACCEPT INPUT:policy', 'DROP INPUT:4', 'DROP INPUT:4', 'ACCEPT INPUT:policy', 'ACCEPT OUTPUT:1', 'ACCEPT OUTPUT:2', 'DROP OUTPUT:policy', 'ACCEPT FORWARD:policy']


def simulate(rules, packets, tmp_path):
    pf = tmp_path / "packets.jsonl"
    pf.write_text("\n".join(packets) + "\n")
    r = subprocess.run([TOOL, str(rules), str(pf)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


@pytest.fixture(scope="module")
def given(tmp_path_factory):
    return simulate(GIVEN, PACKETS_1, tmp_path_factory.mktemp("g"))


@pytest.fixture(scope="module")
def hidden(tmp_path_factory):
    d = tmp_path_factory.mktemp("h")
    (d / "rules").write_text(RULES_2)
    return simulate(d / "rules", PACKETS_2, d)


def test_output_shape(given):
    assert len(given) == len(PACKETS_1)


@pytest.mark.parametrize("i", range(0, 10))
def test_given_input_chain_basics(given, i):
    assert given[i] == EXPECTED_1[i], PACKETS_1[i]


@pytest.mark.parametrize("i", range(10, 21))
def test_given_user_chains_and_negation(given, i):
    assert given[i] == EXPECTED_1[i], PACKETS_1[i]


@pytest.mark.parametrize("i", range(21, len(PACKETS_1)))
def test_given_forward_output(given, i):
    assert given[i] == EXPECTED_1[i], PACKETS_1[i]


@pytest.mark.parametrize("i", range(len(PACKETS_2)))
def test_hidden_ruleset(hidden, i):
    assert hidden[i] == EXPECTED_2[i], PACKETS_2[i]


def test_ruleset_file_untouched():
    text = Path(GIVEN).read_text()
    assert text.count("-A ") == 25 and "*nat" in text
