#include <stdio.h>
#include "opcodes.h"
#include "asm.h"
#include "disasm.h"

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        int nargs, code = asm_lookup(argv[i], &nargs);
        printf("%s -> %d (%d operands) -> %s\n", argv[i], code, nargs, code < 0 ? "-" : disasm_name(code));
    }
    printf("%d opcodes, HALT=%d\n", OPCODE_COUNT, OP_HALT);
    return 0;
}
