/* An LZ77 compressor with hash chains (greedy parsing, 32 KiB window, matches of 3 to 258 bytes, as DEFLATE's
 * limits), its decompressor, and a CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320, table-driven) of the input
 * and of the round trip. The input is text made of words drawn at random from a small vocabulary, so that it
 * compresses about as English does; each round (`scale` of them) has its own text. */
#include "common.h"

enum {
    INPUT_MAX = 1 << 16, /* per round; a round is about 10 M AArch64 instructions */
    WINDOW = 1 << 15,
    HASH_BITS = 13,
    MIN_MATCH = 3,
    MAX_MATCH = 258,
    MAX_CHAIN = 16,
};

static unsigned char input[INPUT_MAX];
static unsigned char packed[INPUT_MAX + INPUT_MAX / 8 + 16];
static unsigned char unpacked[INPUT_MAX];
static int32_t head[1 << HASH_BITS];
static int32_t prev[WINDOW];
static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

static uint32_t crc32(const unsigned char *data, size_t length)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < length; i++)
        c = crc_table[(c ^ data[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static size_t make_text(size_t length, uint32_t seed)
{
    static const char *const words[] = {
        "the ", "counter ", "overflow ", "of ", "a ", "cycle ", "event ", "is ", "counted ", "when ", "branch ",
        "mispredicted ", "cache ", "refill ", "and ", "instruction ", "retired ", "interrupt ", "register ",
        "write ", "read ", "to ", "in ", "that ", "PMU ", "architectural ", "speculative ", "L1 ", "data ",
        "TLB ", "walk ", "memory ", "access. ", "\n",
    };
    const size_t count = sizeof words / sizeof words[0];
    size_t n = 0;
    while (n < length) {
        const char *w = words[next_random(&seed) % count];
        while (*w && n < length)
            input[n++] = (unsigned char)*w++;
    }
    return n;
}

static inline uint32_t hash3(const unsigned char *p)
{
    return ((uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]) * 2654435761u >> (32 - HASH_BITS);
}

/* Tokens: a flag byte for each group of 8 (bit set: a match of 3 bytes: length - 3, then a 16-bit distance - 1,
 * little-endian; clear: one literal byte). Returns the packed size. */
static size_t compress(size_t length)
{
    for (size_t i = 0; i < (1u << HASH_BITS); i++)
        head[i] = -1;
    size_t in = 0, out = 0, flag_at = 0;
    int bit = 8;
    while (in < length) {
        if (bit == 8) {
            flag_at = out++;
            packed[flag_at] = 0;
            bit = 0;
        }
        size_t best_length = 0, best_distance = 0;
        if (in + MIN_MATCH <= length) {
            uint32_t h = hash3(input + in);
            int32_t candidate = head[h];
            size_t limit = length - in < MAX_MATCH ? length - in : MAX_MATCH;
            for (int chain = 0; candidate >= 0 && in - (size_t)candidate <= WINDOW && chain < MAX_CHAIN; chain++) {
                size_t k = 0;
                while (k < limit && input[candidate + k] == input[in + k])
                    k++;
                if (k > best_length) {
                    best_length = k;
                    best_distance = in - (size_t)candidate;
                    if (k == limit)
                        break;
                }
                candidate = prev[candidate & (WINDOW - 1)];
            }
        }
        size_t step = best_length >= MIN_MATCH ? best_length : 1;
        if (best_length >= MIN_MATCH) {
            packed[flag_at] |= (unsigned char)(1u << bit);
            packed[out++] = (unsigned char)(best_length - MIN_MATCH);
            packed[out++] = (unsigned char)((best_distance - 1) & 0xFF);
            packed[out++] = (unsigned char)((best_distance - 1) >> 8);
        } else {
            packed[out++] = input[in];
        }
        bit++;
        for (size_t end = in + step; in < end; in++) {
            if (in + MIN_MATCH <= length) {
                uint32_t h = hash3(input + in);
                prev[in & (WINDOW - 1)] = head[h];
                head[h] = (int32_t)in;
            }
        }
    }
    return out;
}

static size_t decompress(size_t packed_length)
{
    size_t in = 0, out = 0;
    while (in < packed_length) {
        unsigned flags = packed[in++];
        for (int bit = 0; bit < 8 && in < packed_length; bit++) {
            if (flags & (1u << bit)) {
                size_t match = (size_t)packed[in] + MIN_MATCH;
                size_t distance = ((size_t)packed[in + 1] | (size_t)packed[in + 2] << 8) + 1;
                in += 3;
                for (size_t k = 0; k < match; k++, out++)
                    unpacked[out] = unpacked[out - distance];
            } else {
                unpacked[out++] = packed[in++];
            }
        }
    }
    return out;
}

uint32_t lz77_run(unsigned scale)
{
    crc_init();
    uint32_t result = 0;
    for (unsigned round = 0; round < scale; round++) {
        size_t length = make_text(INPUT_MAX - round * 512, 0x9E3779B9u + round);
        size_t packed_length = compress(length);
        size_t unpacked_length = decompress(packed_length);
        uint32_t crc = crc32(input, length);
        if (unpacked_length != length || crc32(unpacked, unpacked_length) != crc)
            return 0;
        result = result * 31 + crc + (uint32_t)packed_length;
    }
    return result;
}
