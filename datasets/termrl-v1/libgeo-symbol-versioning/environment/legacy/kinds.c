/* kinds (built against libgeo 1.4): prints the name of every kind number 0..3 */
#include <stdio.h>
#include "geo.h"
int main(void) {
    for (int k = 0; k < 4; k++) printf("%d %s\n", k, geo_kind_name(k));
    return 0;
}
