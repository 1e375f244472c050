// What Polyphon's WebAssembly module needs from a C library, and nothing more: memory
// (posix_memalign, malloc, free, calloc, realloc), memcmp, round, arc4random_buf. The module
// runs with no libc (wasm32-unknown-none-wasm), so it brings these itself.
//
// The allocator keeps free blocks in 48 size classes (powers of two from 16 bytes); a class's
// blocks are reused first-in-last-out and memory grows a page at a time with memory.grow. The
// engine allocates its buffers once, when a synthesizer is created, so fragmentation is not a
// concern; loading another bank frees the old one's blocks for reuse.
#include <stddef.h>
#include <stdint.h>

extern unsigned char __heap_base;

typedef struct Block { size_t size; struct Block *next; } Block;  // header before every block
enum { HEADER = 16, CLASSES = 48 };

static Block *free_lists[CLASSES];
static uintptr_t heap_top;
static uintptr_t heap_end;

static int size_class(size_t size) {
    int c = 0;
    size_t capacity = 16;
    while (capacity < size && c < CLASSES - 1) { capacity <<= 1; c++; }
    return c;
}

static size_t class_size(int c) { return (size_t)16 << c; }

static void *carve(size_t total, size_t alignment) {
    if (heap_top == 0) heap_top = heap_end = (uintptr_t)&__heap_base;
    uintptr_t start = (heap_top + HEADER + alignment - 1) & ~(uintptr_t)(alignment - 1);
    uintptr_t end = start + total;
    if (end > heap_end) {
        size_t pages = (end - heap_end + 65535) / 65536;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return NULL;
        heap_end += pages * 65536;
    }
    heap_top = end;
    return (void *)start;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < 16) alignment = 16;
    if (size > ((size_t)1 << 30)) return 12;  // ENOMEM
    int c = size_class(size);
    size_t capacity = class_size(c);
    // A free block of the class is reused when its address has the alignment asked for.
    Block **link = &free_lists[c];
    while (*link) {
        if (((uintptr_t)(*link) + HEADER) % alignment == 0) {
            Block *b = *link;
            *link = b->next;
            *out = (unsigned char *)b + HEADER;
            return 0;
        }
        link = &(*link)->next;
    }
    unsigned char *p = carve(capacity, alignment);
    if (!p) return 12;
    Block *b = (Block *)(p - HEADER);
    b->size = (size_t)c;
    *out = p;
    return 0;
}

void *malloc(size_t size) {
    void *p;
    return posix_memalign(&p, 16, size) == 0 ? p : NULL;
}

void free(void *p) {
    if (!p) return;
    Block *b = (Block *)((unsigned char *)p - HEADER);
    int c = (int)b->size;
    b->next = free_lists[c];
    free_lists[c] = b;
}

void *calloc(size_t count, size_t size) {
    if (size && count > ((size_t)-1) / size) return NULL;
    unsigned char *p = malloc(count * size);
    if (p) __builtin_memset(p, 0, count * size);
    return p;
}

void *realloc(void *old, size_t size) {
    if (!old) return malloc(size);
    Block *b = (Block *)((unsigned char *)old - HEADER);
    size_t capacity = class_size((int)b->size);
    if (size <= capacity) return old;
    void *p = malloc(size);
    if (p) { __builtin_memcpy(p, old, capacity); free(old); }
    return p;
}

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++) if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

// Round half away from zero, exactly (no x + 0.5, which rounds 0.49999999999999994 up).
double round(double x) {
    double f = __builtin_floor(x < 0 ? -x : x);
    double r = ((x < 0 ? -x : x) - f >= 0.5) ? f + 1 : f;
    return x < 0 ? -r : r;
}

// Swift seeds its hashing from this. A fixed sequence keeps renders deterministic; nothing in
// the engine depends on hash order for its output.
void arc4random_buf(void *buffer, size_t n) {
    static uint64_t state = 0x9E3779B97F4A7C15ull;
    unsigned char *out = buffer;
    for (size_t i = 0; i < n; i++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        out[i] = (unsigned char)(state >> 56);
    }
}

// memcpy/memset/memmove: the compiler lowers them to bulk-memory instructions, but calls the
// functions when it cannot; defined here in terms of the builtins so both forms exist.
void *memcpy(void *restrict d, const void *restrict s, size_t n) {
    unsigned char *dd = d; const unsigned char *ss = s;
    while (n--) *dd++ = *ss++;
    return d;
}

void *memmove(void *d, const void *s, size_t n) {
    unsigned char *dd = d; const unsigned char *ss = s;
    if (dd < ss) { while (n--) *dd++ = *ss++; }
    else { dd += n; ss += n; while (n--) *--dd = *--ss; }
    return d;
}

void *memset(void *d, int c, size_t n) {
    unsigned char *dd = d;
    while (n--) *dd++ = (unsigned char)c;
    return d;
}
