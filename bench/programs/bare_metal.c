/* The memory functions GCC may call in a build with no C library (the bare-metal RV32 mix). */
#include <stddef.h>

void *memset(void *to, int value, size_t n)
{
    unsigned char *p = to;
    while (n--)
        *p++ = (unsigned char)value;
    return to;
}

void *memcpy(void *to, const void *from, size_t n)
{
    unsigned char *p = to;
    const unsigned char *q = from;
    while (n--)
        *p++ = *q++;
    return to;
}
