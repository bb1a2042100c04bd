#include <math.h>
#include "kv/kv.h"

double kv_mean(const kv_store *cs)
{
    kv_store *s = (kv_store *)cs;
    size_t n;
    const kv_entry *e = kv_entries(s, &n);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += e[i].value;
    return n ? sum / n : 0.0;
}

double kv_stddev(const kv_store *cs)
{
    kv_store *s = (kv_store *)cs;
    size_t n;
    const kv_entry *e = kv_entries(s, &n);
    if (n < 2)
        return 0.0;
    double m = kv_mean(s), acc = 0;
    for (size_t i = 0; i < n; i++)
        acc += (e[i].value - m) * (e[i].value - m);
    return sqrt(acc / (n - 1));
}
