/* sum16: prints the 16-bit additive checksum of a file, as four hex digits. (Legacy code, 1998.) */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    static unsigned char buf[1 << 20];
    FILE *fp;
    size_t n;

    if (argc != 2) {
        fprintf(stderr, "usage: sum16 FILE\n");
        return 2;
    }
    fp = fopen(argv[1], "rb");
    if (!fp) {
        perror(argv[1]);
        return 1;
    }
    n = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    printf("%04x\n", checksum16(buf, (int)n));
    return 0;
}
