#include <stdio.h>
#include "gen.h"
int twice(int);
int main(void){printf("%d\n", twice(ANSWER));return 0;}
