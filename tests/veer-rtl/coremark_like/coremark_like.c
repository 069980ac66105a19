// A CoreMark-like kernel (written for this probe, not CoreMark's code): a linked-list search and reversal, a small
// matrix multiply-accumulate, a character state machine and a CRC-16 over the results.
#include "probe.h"
struct node { struct node* next; int16_t key, val; };
static struct node nodes[24];
static int16_t ma[6][6], mb[6][6];
static int32_t mc[6][6];
static const char text[] = "127,5.25e3,-0.5,abc,42,9e9,x1,3.14,77,,-8";
volatile int sink;

static uint16_t crc16(uint16_t crc, uint32_t v) {
    for (int i = 0; i < 16; ++i) {
        const uint16_t bit = (uint16_t)((crc ^ v) & 1u);
        crc >>= 1;
        v >>= 1;
        if (bit) crc ^= 0xA001u;
    }
    return crc;
}

__attribute__((noinline)) static struct node* reverse(struct node* h) {
    struct node* r = 0;
    while (h) { struct node* n = h->next; h->next = r; r = h; h = n; }
    return r;
}

__attribute__((noinline)) static int find(struct node* h, int key) {
    for (; h; h = h->next) if (h->key == key) return h->val;
    return -1;
}

__attribute__((noinline)) static int states(const char* s) {
    int state = 0, count = 0;
    for (; *s; ++s) {
        const char c = *s;
        if (c == ',') { count += state; state = 0; continue; }
        switch (state) {
            case 0: state = (c >= '0' && c <= '9') ? 1 : (c == '-' ? 2 : 5); break;
            case 1: state = (c >= '0' && c <= '9') ? 1 : (c == '.' ? 3 : (c == 'e' ? 4 : 5)); break;
            case 2: state = (c >= '0' && c <= '9') ? 1 : 5; break;
            case 3: state = (c >= '0' && c <= '9') ? 3 : (c == 'e' ? 4 : 5); break;
            case 4: state = (c >= '0' && c <= '9') ? 4 : 5; break;
            default: break;
        }
    }
    return count + state;
}

__attribute__((noinline)) static void matmul(void) {
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) {
            int32_t s = 0;
            for (int k = 0; k < 6; ++k) s += ma[i][k] * mb[k][j];
            mc[i][j] = s;
        }
}

static struct node* head;

void setup(void) {
    for (int i = 0; i < 24; ++i) {
        nodes[i].next = i + 1 < 24 ? &nodes[i + 1] : 0;
        nodes[i].key = (int16_t)((i * 7) % 24);
        nodes[i].val = (int16_t)(i * 3 - 20);
    }
    head = &nodes[0];
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) { ma[i][j] = (int16_t)(i + j - 3); mb[i][j] = (int16_t)(i * j + 1); }
}

void kernel(void) {
    uint16_t crc = 0;
    for (int it = 0; it < 2; ++it) {
        for (int k = 0; k < 24; k += 5) crc = crc16(crc, (uint32_t)find(head, k));
        head = reverse(head);
        matmul();
        for (int i = 0; i < 6; ++i) crc = crc16(crc, (uint32_t)mc[i][i]);
        crc = crc16(crc, (uint32_t)states(text));
    }
    sink = crc;
}
