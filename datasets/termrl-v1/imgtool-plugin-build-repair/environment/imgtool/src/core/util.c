#include "core.h"

int core_clamp(int v, int maxval) {
    return v < 0 ? 0 : v > maxval ? maxval : v;
}
