#ifndef CRC8_H
#define CRC8_H
#include <stddef.h>
unsigned crc8(const unsigned char *data, size_t len);
#endif
