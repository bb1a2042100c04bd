#!/usr/bin/env python3
"""Generate a C header with the opcode enum and tables from opcodes.def."""
import sys

src, dst = sys.argv[1], sys.argv[2]
ops = []
for line in open(src):
    line = line.split("#", 1)[0].strip()
    if line:
        name, code, nargs = line.split()
        ops.append((name, int(code), int(nargs)))
with open(dst, "w") as f:
    f.write("/* generated from opcodes.def - do not edit */\n#ifndef OPCODES_H\n#define OPCODES_H\n")
    f.write("enum opcode {\n" + "".join(f"    OP_{n} = {c},\n" for n, c, _ in ops) + "};\n")
    f.write(f"#define OPCODE_COUNT {len(ops)}\n")
    f.write("static const struct { const char *name; int code; int nargs; } opcode_table[] = {\n")
    f.write("".join(f'    {{"{n}", {c}, {a}}},\n' for n, c, a in ops) + "};\n#endif\n")
