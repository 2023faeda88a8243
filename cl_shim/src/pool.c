/* Memory pools: bins of held blocks under one mutex (see pool.h).
 *
 * The Python pool objects (pycl/pool.py) only allocate new blocks, through
 * their allocator, when a bin is empty; everything else is here: taking a
 * held block, giving it back when its record is released or collected (the
 * record's ffi.gc destructor, which runs no Python and never blocks), the
 * counters, and freeing held blocks. A block is freed (clReleaseMemObject, or
 * the SVM allocation's queue-ordered free) outside the mutex. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

struct held {
    void *block;
    uintptr_t tag;
};

struct bin {
    uint64_t nr;
    size_t nbytes;
    struct held *blocks;
    size_t count, capacity;
};

/* Pools of at most this many leading bits look bins up in a table indexed by
 * bin number (64 << bits entries: 4 KiB at the default 4 bits) instead of a
 * binary search, which mispredicts its branches when sizes vary. */
#define INDEXED_BITS 8
/* Records of returned blocks kept for the next allocations (a malloc and a
 * free fewer per allocation). */
#define SPARE_RECORDS 16

struct pycl_pool {
    pthread_mutex_t lock;
    int kind;
    unsigned bits;
    int holding;
    size_t refs;      /* the owner's and one per handed-out record */
    struct bin *bins; /* sorted by nr */
    size_t nbins, bins_capacity;
    uint32_t *index;        /* bin number -> position in bins + 1 (0: none); NULL above INDEXED_BITS */
    size_t taken, returned; /* bytes handed out and returned since pycl_pool_settle */
    size_t settle_step;     /* pycl_pool_take refuses once `taken` reaches it (0: never) */
    struct pycl_pooled *spares[SPARE_RECORDS];
    unsigned nspares;
    struct pycl_pool_stats s;
};

static uint64_t shift(uint64_t value, int places)
{
    return places >= 0 ? value << places : value >> -places;
}

uint64_t pycl_pool_bin_number(unsigned bits, size_t size)
{
    int exponent = size ? 63 - __builtin_clzll((unsigned long long)size) : 0;
    uint64_t mantissa = shift(size, (int)bits - exponent) & ((UINT64_C(1) << bits) - 1);
    return (uint64_t)exponent << bits | mantissa;
}

size_t pycl_pool_alloc_size(unsigned bits, uint64_t bin)
{
    int exponent = (int)(bin >> bits);
    uint64_t mantissa = bin & ((UINT64_C(1) << bits) - 1);
    uint64_t head = shift(UINT64_C(1) << bits | mantissa, exponent - (int)bits);
    uint64_t ones = exponent > (int)bits ? (UINT64_C(1) << (exponent - (int)bits)) - 1 : 0;
    return (size_t)(head | ones);
}

static void free_block(int kind, void *block)
{
    if (kind == PYCL_POOL_SVM)
        pycl_svm_free(block);
    else if (kind == PYCL_POOL_BUFFERS)
        pycl_mem_release(block);
}

static void free_blocks(int kind, void **blocks, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        free_block(kind, blocks[i]);
    free(blocks);
}

cl_int pycl_pool_create(int kind, unsigned leading_bits, struct pycl_pool **result)
{
    if ((kind != PYCL_POOL_BUFFERS && kind != PYCL_POOL_SVM && kind != PYCL_POOL_OPAQUE) || leading_bits > 32)
        return CL_INVALID_VALUE;
    struct pycl_pool *pool = calloc(1, sizeof *pool);
    if (!pool)
        return CL_OUT_OF_HOST_MEMORY;
    if (leading_bits <= INDEXED_BITS) {
        pool->index = calloc((size_t)64 << leading_bits, sizeof *pool->index);
        if (!pool->index) {
            free(pool);
            return CL_OUT_OF_HOST_MEMORY;
        }
    }
    pthread_mutex_init(&pool->lock, NULL);
    pool->kind = kind;
    pool->bits = leading_bits;
    pool->holding = 1;
    pool->refs = 1;
    *result = pool;
    return CL_SUCCESS;
}

/* Under the lock: the bin `nr`, made if `make` (NULL if absent, or out of memory). */
static struct bin *find_bin(struct pycl_pool *pool, uint64_t nr, int make)
{
    if (pool->index && pool->index[nr])
        return &pool->bins[pool->index[nr] - 1];
    if (pool->index && !make)
        return NULL;
    size_t lo = 0, hi = pool->nbins;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pool->bins[mid].nr < nr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < pool->nbins && pool->bins[lo].nr == nr)
        return &pool->bins[lo];
    if (!make)
        return NULL;
    if (pool->nbins == pool->bins_capacity) {
        size_t capacity = pool->bins_capacity ? 2 * pool->bins_capacity : 16;
        struct bin *grown = realloc(pool->bins, capacity * sizeof *grown);
        if (!grown)
            return NULL;
        pool->bins = grown;
        pool->bins_capacity = capacity;
    }
    memmove(&pool->bins[lo + 1], &pool->bins[lo], (pool->nbins - lo) * sizeof *pool->bins);
    ++pool->nbins;
    if (pool->index)
        for (size_t i = lo + 1; i < pool->nbins; ++i)
            pool->index[pool->bins[i].nr] = (uint32_t)i + 1;
    struct bin *b = &pool->bins[lo];
    memset(b, 0, sizeof *b);
    b->nr = nr;
    b->nbytes = pycl_pool_alloc_size(pool->bits, nr);
    if (pool->index)
        pool->index[nr] = (uint32_t)lo + 1;
    return b;
}

/* Under the lock: count a block of `nbytes` handed out for `size`. */
static void activate(struct pycl_pool_stats *s, size_t nbytes, size_t size)
{
    s->active_blocks += 1;
    s->active_bytes += size;
    s->active_alloc_bytes += nbytes;
    if (s->active_blocks > s->peak_active_blocks)
        s->peak_active_blocks = s->active_blocks;
    if (s->active_bytes > s->peak_active_bytes)
        s->peak_active_bytes = s->active_bytes;
    size_t managed = s->held_bytes + s->active_alloc_bytes;
    if (managed > s->peak_managed_bytes)
        s->peak_managed_bytes = managed;
}

/* Fills the record `p` (NULL: out of memory, returned as is). */
static struct pycl_pooled *fill_record(struct pycl_pooled *p, struct pycl_pool *pool, void *block, uintptr_t tag,
                                       uint64_t nr, size_t nbytes, size_t size)
{
    if (!p)
        return NULL;
    p->mem = pool->kind == PYCL_POOL_BUFFERS ? block : NULL;
    p->svm = pool->kind == PYCL_POOL_SVM ? block : NULL;
    p->address = p->svm ? p->svm->address : (uintptr_t)block;
    p->nbytes = nbytes;
    p->size = size;
    p->tag = tag;
    p->bin = nr;
    p->pool = pool;
    return p;
}

static __thread cl_int last_status;

cl_int pycl_pool_status(void)
{
    return last_status;
}

static struct pycl_pooled *take(struct pycl_pool *pool, size_t size, int count)
{
    uint64_t nr = pycl_pool_bin_number(pool->bits, size);
    pthread_mutex_lock(&pool->lock);
    if (count)
        pool->s.allocations += 1;
    if (pool->settle_step && pool->taken >= pool->settle_step) {
        pthread_mutex_unlock(&pool->lock);
        last_status = PYCL_POOL_SETTLE;
        return NULL;
    }
    struct bin *b = find_bin(pool, nr, 0);
    if (!b || !b->count) {
        pthread_mutex_unlock(&pool->lock);
        last_status = PYCL_POOL_MISS;
        return NULL;
    }
    struct held h = b->blocks[b->count - 1];
    struct pycl_pooled *spare = pool->nspares ? pool->spares[--pool->nspares] : malloc(sizeof *spare);
    struct pycl_pooled *p = fill_record(spare, pool, h.block, h.tag, nr, b->nbytes, size);
    if (!p) {
        pthread_mutex_unlock(&pool->lock);
        last_status = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    b->count -= 1;
    pool->s.hits += 1;
    pool->s.held_blocks -= 1;
    pool->s.held_bytes -= b->nbytes;
    pool->taken += b->nbytes;
    activate(&pool->s, b->nbytes, size);
    pool->refs += 1;
    pthread_mutex_unlock(&pool->lock);
    return p;
}

struct pycl_pooled *pycl_pool_take(struct pycl_pool *pool, size_t size)
{
    return take(pool, size, 1);
}

struct pycl_pooled *pycl_pool_retake(struct pycl_pool *pool, size_t size)
{
    return take(pool, size, 0);
}

struct pycl_pooled *pycl_pool_adopt(struct pycl_pool *pool, size_t size, void *block)
{
    uint64_t nr = pycl_pool_bin_number(pool->bits, size);
    size_t nbytes = pycl_pool_alloc_size(pool->bits, nr);
    struct pycl_pooled *p = fill_record(malloc(sizeof *p), pool, block, 0, nr, nbytes, size);
    if (!p) {
        last_status = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    if (pool->kind == PYCL_POOL_SVM)
        pycl_svm_ref(block);
    else if (pool->kind == PYCL_POOL_BUFFERS)
        pycl_mem_retain(block);
    pthread_mutex_lock(&pool->lock);
    pool->taken += nbytes;
    activate(&pool->s, nbytes, size);
    pool->refs += 1;
    pthread_mutex_unlock(&pool->lock);
    return p;
}

/* Under the lock: pops held blocks, largest bins first, until at most
 * `target` bytes are held; *n of them in the returned array (to free outside
 * the lock; NULL if none or out of memory, then nothing is popped). */
static void **pop_held(struct pycl_pool *pool, size_t target, size_t *n, size_t *bytes)
{
    *n = 0;
    *bytes = 0;
    if (pool->s.held_bytes <= target || !pool->s.held_blocks)
        return NULL;
    void **out = malloc(pool->s.held_blocks * sizeof *out);
    if (!out)
        return NULL;
    for (size_t i = pool->nbins; i-- > 0 && pool->s.held_bytes > target;) {
        struct bin *b = &pool->bins[i];
        while (b->count && pool->s.held_bytes > target) {
            out[(*n)++] = b->blocks[--b->count].block;
            pool->s.held_blocks -= 1;
            pool->s.held_bytes -= b->nbytes;
            *bytes += b->nbytes;
        }
    }
    return out;
}

static void destroy(struct pycl_pool *pool)
{
    size_t n, bytes;
    void **blocks = pop_held(pool, 0, &n, &bytes);
    free_blocks(pool->kind, blocks, n);
    for (size_t i = 0; i < pool->nbins; ++i)
        free(pool->bins[i].blocks);
    free(pool->bins);
    free(pool->index);
    while (pool->nspares)
        free(pool->spares[--pool->nspares]);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

void pycl_pool_return(struct pycl_pooled *p)
{
    if (!p)
        return;
    struct pycl_pool *pool = p->pool;
    void *to_free = NULL;
    pthread_mutex_lock(&pool->lock);
    struct pycl_pool_stats *s = &pool->s;
    s->active_blocks -= 1;
    s->active_bytes -= p->size;
    s->active_alloc_bytes -= p->nbytes;
    pool->returned += p->nbytes;
    /* A buffer's or an opaque block's address is the block itself. */
    void *block = p->svm ? (void *)p->svm : (void *)p->address;
    struct bin *b = pool->holding ? find_bin(pool, p->bin, 1) : NULL;
    if (b && b->count == b->capacity) {
        size_t capacity = b->capacity ? 2 * b->capacity : 8;
        struct held *grown = realloc(b->blocks, capacity * sizeof *grown);
        if (grown) {
            b->blocks = grown;
            b->capacity = capacity;
        }
    }
    if (b && b->count < b->capacity) {
        b->blocks[b->count].block = block;
        b->blocks[b->count].tag = p->tag;
        b->count += 1;
        s->held_blocks += 1;
        s->held_bytes += b->nbytes;
        if (s->held_blocks > s->peak_held_blocks)
            s->peak_held_blocks = s->held_blocks;
        if (s->held_bytes > s->peak_held_bytes)
            s->peak_held_bytes = s->held_bytes;
    } else {
        to_free = block; /* not holding (or no memory for the bin): freed */
    }
    int last = --pool->refs == 0;
    if (!last && pool->nspares < SPARE_RECORDS) {
        pool->spares[pool->nspares++] = p;
        p = NULL;
    }
    pthread_mutex_unlock(&pool->lock);
    free(p);
    if (to_free)
        free_block(pool->kind, to_free);
    if (last)
        destroy(pool);
}

void pycl_pool_unref(struct pycl_pool *pool)
{
    if (!pool)
        return;
    pthread_mutex_lock(&pool->lock);
    int last = --pool->refs == 0;
    pthread_mutex_unlock(&pool->lock);
    if (last)
        destroy(pool);
}

size_t pycl_pool_free_held(struct pycl_pool *pool, size_t target)
{
    size_t n, bytes;
    pthread_mutex_lock(&pool->lock);
    void **blocks = pop_held(pool, target, &n, &bytes);
    pthread_mutex_unlock(&pool->lock);
    free_blocks(pool->kind, blocks, n);
    return bytes;
}

size_t pycl_pool_stop_holding(struct pycl_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    pool->holding = 0;
    pthread_mutex_unlock(&pool->lock);
    return pycl_pool_free_held(pool, 0);
}

size_t pycl_pool_settle(struct pycl_pool *pool, size_t step, size_t *returned)
{
    pthread_mutex_lock(&pool->lock);
    size_t taken = pool->taken;
    *returned = pool->returned;
    pool->taken = pool->returned = 0;
    pool->settle_step = step;
    pthread_mutex_unlock(&pool->lock);
    return taken;
}

void pycl_pool_count_oom_retry(struct pycl_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    pool->s.oom_retries += 1;
    pthread_mutex_unlock(&pool->lock);
}

void pycl_pool_get_stats(struct pycl_pool *pool, struct pycl_pool_stats *stats)
{
    pthread_mutex_lock(&pool->lock);
    *stats = pool->s;
    pthread_mutex_unlock(&pool->lock);
}

void pycl_pool_reset_peak(struct pycl_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    struct pycl_pool_stats *s = &pool->s;
    s->peak_active_blocks = s->active_blocks;
    s->peak_active_bytes = s->active_bytes;
    s->peak_held_blocks = s->held_blocks;
    s->peak_held_bytes = s->held_bytes;
    s->peak_managed_bytes = s->held_bytes + s->active_alloc_bytes;
    pthread_mutex_unlock(&pool->lock);
}

size_t pycl_pool_count_held(struct pycl_pool *pool)
{
    size_t n = 0;
    pthread_mutex_lock(&pool->lock);
    for (size_t i = 0; i < pool->nbins; ++i)
        n += pool->bins[i].count;
    pthread_mutex_unlock(&pool->lock);
    return n;
}
