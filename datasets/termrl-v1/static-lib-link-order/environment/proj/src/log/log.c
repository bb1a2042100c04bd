#include <stdio.h>
#include "log.h"

int log_level = 1;   /* messages with level <= log_level are printed */
static int count;

void log_set_level(int level) { log_level = level; }
void log_msg(int level, const char *msg) {
    count++;
    if (level <= log_level) fprintf(stderr, "log: %s\n", msg);
}
int log_count(void) { return count; }
