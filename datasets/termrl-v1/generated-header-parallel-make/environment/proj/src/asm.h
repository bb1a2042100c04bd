int asm_lookup(const char *name, int *nargs);
