#!/usr/bin/env python3
"""Score the sandboxing exposure of a service from its unit file and drop-ins."""
import json
import os
import sys

BOOLS = ("NoNewPrivileges", "PrivateTmp", "PrivateDevices", "MemoryDenyWriteExecute", "DynamicUser")
STRINGS = ("User", "ProtectSystem", "ProtectHome")
DANGEROUS = {"CAP_SYS_ADMIN", "CAP_SYS_PTRACE", "CAP_NET_ADMIN", "CAP_SYS_MODULE", "CAP_DAC_OVERRIDE"}
WEIGHTS = {"root": 2.0, "no-new-privileges": 1.0, "private-tmp": 0.5, "protect-system": 1.0, "protect-home": 0.8,
           "private-devices": 0.5, "dangerous-caps": 1.5, "address-families": 0.7, "syscall-filter": 1.0,
           "mdwe": 0.3}


class SetState:
    """ALL minus `minus`, or exactly `only`; `fresh` until the first positive assignment after a reset."""

    def __init__(self):
        self.all, self.minus, self.only, self.fresh = True, set(), set(), True

    def assign(self, value):
        items = value.split()
        if not items:
            self.__init__()
            return
        if items[0].startswith("~"):
            items[0] = items[0][1:]
            drop = {i for i in items if i}
            if self.all:
                self.minus |= drop
            else:
                self.only -= drop
            return
        if self.fresh:
            self.all, self.only, self.fresh = False, set(items), False
        else:
            self.only |= set(items)

    def contains(self, item):
        return item not in self.minus if self.all else item in self.only


def read_lines(path):
    out, pending = [], ""
    for raw in open(path, encoding="utf-8").read().split("\n"):
        line = pending + raw
        if line.rstrip().endswith("\\"):
            pending = line.rstrip()[:-1] + " "
            continue
        pending = ""
        out.append(line.strip())
    if pending:
        out.append(pending.strip())
    return out


def main(unitdir, unit):
    name, _, kind = unit.rpartition(".")
    template = None
    if "@" in name:
        template = name.split("@", 1)[0] + "@." + kind
    main_file = os.path.join(unitdir, unit)
    if not os.path.isfile(main_file) and template:
        main_file = os.path.join(unitdir, template)
    dirs = [kind + ".d"] + ([template + ".d"] if template else []) + [unit + ".d"]
    chosen = {}
    for d in dirs:
        full = os.path.join(unitdir, d)
        if os.path.isdir(full):
            for f in os.listdir(full):
                if f.endswith(".conf") and os.path.isfile(os.path.join(full, f)):
                    chosen[f] = os.path.join(full, f)
    files = [main_file] + [chosen[f] for f in sorted(chosen)]
    vals = {}
    caps, fams = SetState(), SetState()
    scf = False
    for path in files:
        section = None
        for line in read_lines(path):
            if not line or line[0] in "#;":
                continue
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1]
                continue
            if section != "Service" or "=" not in line:
                continue
            key, value = (x.strip() for x in line.split("=", 1))
            if key in BOOLS or key in STRINGS:
                if value:
                    vals[key] = value
                else:
                    vals.pop(key, None)
            elif key == "CapabilityBoundingSet":
                caps.assign(value)
            elif key == "RestrictAddressFamilies":
                fams.assign(value)
            elif key == "SystemCallFilter":
                scf = bool(value.split())

    def true(key):
        return vals.get(key, "").lower() in ("1", "yes", "true", "on")

    findings = []
    if vals.get("User", "root") in ("root", "0") and not true("DynamicUser"):
        findings.append("root")
    if not true("NoNewPrivileges"):
        findings.append("no-new-privileges")
    if not true("PrivateTmp"):
        findings.append("private-tmp")
    if vals.get("ProtectSystem", "").lower() not in ("strict", "full"):
        findings.append("protect-system")
    if vals.get("ProtectHome", "").lower() not in ("yes", "read-only", "tmpfs", "true", "on", "1"):
        findings.append("protect-home")
    if not true("PrivateDevices"):
        findings.append("private-devices")
    if any(caps.contains(c) for c in DANGEROUS):
        findings.append("dangerous-caps")
    if fams.contains("AF_PACKET"):
        findings.append("address-families")
    if not scf:
        findings.append("syscall-filter")
    if not true("MemoryDenyWriteExecute"):
        findings.append("mdwe")
    findings.sort()
    print(json.dumps({"unit": unit, "score": round(sum(WEIGHTS[f] for f in findings), 1), "findings": findings}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
