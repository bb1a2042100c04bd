#include <string.h>
#include "opcodes.h"
#include "asm.h"

int asm_lookup(const char *name, int *nargs) {
    for (int i = 0; i < OPCODE_COUNT; i++)
        if (!strcmp(opcode_table[i].name, name)) { *nargs = opcode_table[i].nargs; return opcode_table[i].code; }
    return -1;
}
