#include <stdio.h>
#include "greet.h"
int main(void) {
#ifdef LOUD
    printf("%s!!!\n", greet_message());
#else
    printf("%s\n", greet_message());
#endif
    return 0;
}
