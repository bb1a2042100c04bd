#include "greet.h"
#ifndef GREETING
#define GREETING "hello"
#endif
const char *greet_message(void) { return GREETING; }
int greet_version(void) { return 3; }
