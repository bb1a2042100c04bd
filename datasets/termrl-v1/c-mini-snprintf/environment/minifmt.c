#include "minifmt.h"

/* TODO: implement mini_vsnprintf and mini_snprintf (see the task statement). */
