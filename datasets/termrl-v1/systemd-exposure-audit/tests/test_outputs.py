"""/app/exposure.py on unit directories generated here: hand-checked services for each rule, then random
services with template instances, drop-in directories of three levels, same-name overrides, resets,
continuation lines and look-alike keys in other sections, compared with a reference scorer."""
import contextlib
import io
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import exposref  # noqa: E402

TOOL = "/app/exposure.py"
RNG = random.Random(os.urandom(8))
ALL_FINDINGS = ["address-families", "dangerous-caps", "mdwe", "no-new-privileges", "private-devices",
                "private-tmp", "protect-home", "protect-system", "root", "syscall-filter"]


def write(d, files):
    for rel, text in files.items():
        p = d / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def score(d, unit):
    r = subprocess.run([sys.executable, TOOL, str(d), unit], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    return out


def reference(d, unit):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exposref.main(str(d), unit)
    return json.loads(buf.getvalue())


HARDENED = """[Unit]
Description=hardened api

[Service]
ExecStart=/usr/bin/api
User=api
NoNewPrivileges=yes
PrivateTmp=true
ProtectSystem=strict
ProtectHome=read-only
PrivateDevices=on
CapabilityBoundingSet=CAP_NET_BIND_SERVICE
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX
SystemCallFilter=@system-service
MemoryDenyWriteExecute=1
"""


def test_bare_and_hardened_services(tmp_path):
    write(tmp_path, {"bare.service": "[Service]\nExecStart=/usr/bin/bare\n", "api.service": HARDENED})
    assert score(tmp_path, "bare.service") == {"unit": "bare.service", "score": 9.3, "findings": ALL_FINDINGS}
    assert score(tmp_path, "api.service") == {"unit": "api.service", "score": 0.0, "findings": []}


def test_dropins_override_in_name_order_and_resets(tmp_path):
    write(tmp_path, {
        "api.service": HARDENED,
        "api.service.d/10-debug.conf": "[Service]\nUser=\nNoNewPrivileges=no\nCapabilityBoundingSet=CAP_SYS_PTRACE\n",
        "api.service.d/20-fix.conf": "[Service]\nNoNewPrivileges=yes\n",
        "api.service.d/05-net.conf": "[Service]\nRestrictAddressFamilies=\nSystemCallFilter=\n",
        "api.service.d/notes.txt": "[Service]\nPrivateTmp=no\n",
    })
    out = score(tmp_path, "api.service")
    assert out == {"unit": "api.service", "score": 5.2,
                   "findings": ["address-families", "dangerous-caps", "root", "syscall-filter"]}


def test_template_instances_and_dropin_precedence(tmp_path):
    write(tmp_path, {
        "worker@.service": HARDENED.replace("User=api", "DynamicUser=yes"),
        "service.d/50-site.conf": "[Service]\nPrivateTmp=no\nMemoryDenyWriteExecute=no\n",
        "worker@.service.d/50-site.conf": "[Service]\nPrivateTmp=yes\n",
        "worker@7.service.d/60-local.conf": "[Service]\nProtectSystem=true\nDynamicUser=no\n",
        "other.service": HARDENED,
    })
    # the template's 50-site.conf replaces the global one of the same name
    assert score(tmp_path, "worker@3.service") == {"unit": "worker@3.service", "score": 0.0, "findings": []}
    assert score(tmp_path, "worker@7.service") == {"unit": "worker@7.service", "score": 3.0,
                                                   "findings": ["protect-system", "root"]}
    # the global drop-in applies to every service
    assert score(tmp_path, "other.service")["findings"] == ["mdwe", "private-tmp"]


def test_set_algebra_for_capabilities_and_families(tmp_path):
    base = HARDENED.replace("CapabilityBoundingSet=CAP_NET_BIND_SERVICE\n", "").replace(
        "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX\n", "")
    cases = [
        ("CapabilityBoundingSet=~CAP_SYS_ADMIN CAP_SYS_PTRACE CAP_NET_ADMIN CAP_SYS_MODULE\n", ["dangerous-caps"]),
        ("CapabilityBoundingSet=~CAP_SYS_ADMIN CAP_SYS_PTRACE CAP_NET_ADMIN CAP_SYS_MODULE CAP_DAC_OVERRIDE\n", []),
        ("CapabilityBoundingSet=CAP_CHOWN\nCapabilityBoundingSet=CAP_DAC_OVERRIDE\n", ["dangerous-caps"]),
        ("CapabilityBoundingSet=CAP_CHOWN CAP_SYS_ADMIN\nCapabilityBoundingSet=~CAP_SYS_ADMIN\n", []),
        ("CapabilityBoundingSet=CAP_CHOWN\nCapabilityBoundingSet=\n", ["dangerous-caps"]),
        ("RestrictAddressFamilies=~AF_PACKET\nCapabilityBoundingSet=CAP_CHOWN\n", []),
        ("RestrictAddressFamilies=AF_INET\nRestrictAddressFamilies=AF_PACKET\nCapabilityBoundingSet=CAP_CHOWN\n", ["address-families"]),
        ("RestrictAddressFamilies=~AF_NETLINK\nRestrictAddressFamilies=AF_UNIX\nCapabilityBoundingSet=CAP_CHOWN\n", []),
    ]
    for i, (extra, findings) in enumerate(cases):
        if "RestrictAddressFamilies" not in extra:
            extra += "RestrictAddressFamilies=AF_UNIX\n"
        write(tmp_path, {f"s{i}.service": base + extra})
        assert score(tmp_path, f"s{i}.service")["findings"] == findings, extra


def test_syntax_sections_and_continuations(tmp_path):
    text = ("# site policy\n[Unit]\nNoNewPrivileges=yes\nUser=svc\n\n[Service]\n  ; comment\n"
            "  User = svc  \nCapabilityBoundingSet=CAP_CHOWN \\\n  CAP_SETUID\nSystemCallFilter=@system-service \\\n"
            "   @network-io\nRestrictAddressFamilies=AF_UNIX\nProtectSystem=FULL\nProtectHome=TmpFs\n"
            "PrivateTmp=ON\nPrivateDevices=True\nMemoryDenyWriteExecute=yes\n[Install]\nWantedBy=multi-user.target\n"
            "NoNewPrivileges=yes\n")
    write(tmp_path, {"web.service": text})
    assert score(tmp_path, "web.service") == {"unit": "web.service", "score": 1.0, "findings": ["no-new-privileges"]}


KEYS = {
    "User": ["", "root", "0", "www-data", "svc"],
    "DynamicUser": ["", "yes", "no"],
    "NoNewPrivileges": ["", "yes", "no", "true", "0"],
    "PrivateTmp": ["", "yes", "no", "on"],
    "PrivateDevices": ["", "yes", "off", "1"],
    "MemoryDenyWriteExecute": ["", "yes", "no"],
    "ProtectSystem": ["", "strict", "full", "yes", "no"],
    "ProtectHome": ["", "yes", "read-only", "tmpfs", "no"],
    "SystemCallFilter": ["", "@system-service", "~@mount"],
    "CapabilityBoundingSet": ["", "CAP_CHOWN", "CAP_NET_BIND_SERVICE CAP_SYS_ADMIN", "~CAP_SYS_ADMIN CAP_SYS_PTRACE",
                              "~CAP_NET_ADMIN CAP_SYS_MODULE CAP_DAC_OVERRIDE", "CAP_SYS_PTRACE"],
    "RestrictAddressFamilies": ["", "AF_INET AF_INET6", "~AF_PACKET", "AF_PACKET", "AF_UNIX"],
}


def random_body(n):
    lines = ["[Service]"]
    for _ in range(n):
        k = RNG.choice(list(KEYS))
        lines.append(f"{k}={RNG.choice(KEYS[k])}")
        if RNG.random() < 0.1:
            lines.append(RNG.choice(["[Unit]", "[Install]"]))
            k = RNG.choice(list(KEYS))
            lines.append(f"{k}={RNG.choice(KEYS[k])}")
            lines.append("[Service]")
    return "\n".join(lines) + "\n"


def test_random_unit_trees(tmp_path):
    bad = []
    for t in range(6):
        d = tmp_path / f"t{t}"
        files = {"svc.service": random_body(RNG.randint(3, 12)), "job@.service": random_body(RNG.randint(3, 12))}
        names = [f"{RNG.randint(0, 99):02d}-{RNG.choice(['a', 'b', 'c'])}.conf" for _ in range(5)]
        for level in ["service.d", "svc.service.d", "job@.service.d", "job@1.service.d", "job@2.service.d"]:
            for _ in range(RNG.randint(0, 3)):
                files[f"{level}/{RNG.choice(names)}"] = random_body(RNG.randint(1, 5))
        if RNG.random() < 0.5:
            files["job@2.service"] = random_body(RNG.randint(3, 10))
        write(d, files)
        for unit in ["svc.service", "job@1.service", "job@2.service", "job@9.service"]:
            got, want = score(d, unit), reference(d, unit)
            if got != want:
                bad.append((t, unit, got, want))
    assert not bad, bad[:3]
