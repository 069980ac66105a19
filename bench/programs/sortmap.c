/* A merge sort (top-down, with a scratch buffer) of random records by key, and an open-addressing hash table
 * (linear probing, multiplicative hashing) that counts each key and is then probed for every record and for keys
 * that are absent. The sort is checked for order and the table's counts against the number of records. */
#include "common.h"

enum { RECORDS = 1 << 15, TABLE_BITS = 16 };

struct record {
    uint32_t key;
    uint32_t value;
};

static struct record records[RECORDS];
static struct record scratch[RECORDS];
static uint32_t table_keys[1u << TABLE_BITS];
static uint32_t table_counts[1u << TABLE_BITS];

static void merge_sort(struct record *a, size_t n)
{
    if (n < 2)
        return;
    size_t half = n / 2;
    merge_sort(a, half);
    merge_sort(a + half, n - half);
    size_t i = 0, j = half, k = 0;
    while (i < half && j < n)
        scratch[k++] = a[j].key < a[i].key ? a[j++] : a[i++];
    while (i < half)
        scratch[k++] = a[i++];
    while (j < n)
        scratch[k++] = a[j++];
    for (k = 0; k < n; k++)
        a[k] = scratch[k];
}

static inline uint32_t slot_of(uint32_t key) { return (key * 2654435769u) >> (32 - TABLE_BITS); }

/* Key 0 marks an empty slot: keys are made odd. */
static void count_key(uint32_t key)
{
    uint32_t mask = (1u << TABLE_BITS) - 1, s = slot_of(key);
    while (table_keys[s] != 0 && table_keys[s] != key)
        s = (s + 1) & mask;
    table_keys[s] = key;
    table_counts[s]++;
}

static uint32_t lookup(uint32_t key)
{
    uint32_t mask = (1u << TABLE_BITS) - 1, s = slot_of(key);
    while (table_keys[s] != 0) {
        if (table_keys[s] == key)
            return table_counts[s];
        s = (s + 1) & mask;
    }
    return 0;
}

uint32_t sortmap_run(unsigned scale)
{
    uint32_t result = 0, seed = 0xC0FFEEu;
    for (unsigned round = 0; round < scale; round++) {
        const size_t n = RECORDS - round * 64;
        for (size_t s = 0; s < (1u << TABLE_BITS); s++)
            table_keys[s] = table_counts[s] = 0;
        for (size_t i = 0; i < n; i++) {
            records[i].key = (next_random(&seed) % (n / 2)) * 2 + 1; /* about half the keys repeat */
            records[i].value = (uint32_t)i;
            count_key(records[i].key);
        }
        merge_sort(records, n);
        uint32_t total = 0, absent = 0, digest = 0;
        for (size_t i = 0; i < n; i++) {
            if (i > 0 && records[i - 1].key > records[i].key)
                return 0;
            total += i == 0 || records[i - 1].key != records[i].key ? lookup(records[i].key) : 0;
            absent += lookup(records[i].key + 1) == 0; /* even: never a key */
            digest = digest * 33 + records[i].value;
        }
        if (total != n || absent != n)
            return 0;
        result = result * 31 + digest;
    }
    return result ? result : 1;
}
