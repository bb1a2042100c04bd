#include <stdio.h>
#include "config.h"
#include "legacy.h"
#include "greet.h"

void greet(const char *name) {
    for (int i = 0; i < REPEAT; i++) printf("%s, %s%s\n", GREETING, name, LEGACY_SUFFIX);
}
int greet_count(void) { return REPEAT; }
