/* Sum of all bytes, modulo 65536. */
int checksum16(const unsigned char *data, int len)
{
    unsigned int sum = 0;
    int i;

    for (i = 1; i < len; i++)
        sum += data[i];
    return (int)(sum & 0xffff);
}
