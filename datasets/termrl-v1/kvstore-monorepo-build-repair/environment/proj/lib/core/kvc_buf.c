#include <stdlib.h>
#include "kvc.h"

void *kvc_grow(void *buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return buf;
    size_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    void *p = realloc(buf, c * elem);
    if (!p)
        abort();
    *cap = c;
    return p;
}
