#include "opcodes.h"
#include "disasm.h"

const char *disasm_name(int code) {
    for (int i = 0; i < OPCODE_COUNT; i++)
        if (opcode_table[i].code == code) return opcode_table[i].name;
    return "???";
}
