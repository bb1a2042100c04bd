const char *disasm_name(int code);
