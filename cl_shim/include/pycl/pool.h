/* Memory pools (pycl.MemoryPool, pycl.SVMPool): bins of held blocks, in C so
 * that an allocation is one call and a handed-out block goes back to its bin
 * from a C destructor when it is collected (pool.c).
 *
 * A block is a cl_mem (a buffer pool) or a struct pycl_svm (an SVM pool) of
 * which the pool owns one reference, or an opaque non-NULL token that the pool
 * neither retains nor frees (pycl._cl._TestMemoryPool: the bins and counters,
 * checked without a device). A size's bin is its exponent (the
 * position of its highest set bit) followed by the `leading_bits` bits below
 * the highest one; every block of a bin has the bin's largest size, so blocks
 * of a bin are interchangeable (PyOpenCL's bins). */

#define PYCL_POOL_BUFFERS 0
#define PYCL_POOL_SVM     1
#define PYCL_POOL_OPAQUE  2
/* pycl_pool_status() after a pycl_pool_take that found no held block in the
 * bin: allocate one and hand it to pycl_pool_adopt. */
#define PYCL_POOL_MISS 1
/* pycl_pool_status() after a pycl_pool_take refused because the bytes handed
 * out since the last pycl_pool_settle reached its step: settle, then retake. */
#define PYCL_POOL_SETTLE 2

struct pycl_pool;

/* A handed-out block: the record a PooledBuffer or PooledSVM owns, with
 * pycl_pool_return as its ffi.gc destructor. */
struct pycl_pooled {
    cl_mem mem;           /* the block of a buffer pool, else NULL */
    struct pycl_svm *svm; /* the block of an SVM pool, else NULL */
    uintptr_t address;    /* the cl_mem, the SVM pointer or the opaque token, as an int */
    size_t nbytes;        /* the block's size (its bin's) */
    size_t size;          /* the size asked for */
    uintptr_t tag;        /* the caller's, kept with the block while it is held */
    uint64_t bin;
    struct pycl_pool *pool;
};

struct pycl_pool_stats {
    size_t active_blocks, active_bytes, active_alloc_bytes;
    size_t held_blocks, held_bytes;
    size_t peak_active_blocks, peak_active_bytes, peak_held_blocks, peak_held_bytes, peak_managed_bytes;
    size_t allocations, hits, oom_retries;
};

uint64_t pycl_pool_bin_number(unsigned leading_bits, size_t size);
/* The bytes of every block of `bin`: the largest size in the bin. */
size_t pycl_pool_alloc_size(unsigned leading_bits, uint64_t bin);

/* leading_bits: 0..32. *pool holds one reference for the caller. */
cl_int pycl_pool_create(int kind, unsigned leading_bits, struct pycl_pool **pool);
/* Drops the caller's reference (an ffi.gc destructor); the pool and its held
 * blocks go when the last handed-out block has come back too. Never blocks. */
void pycl_pool_unref(struct pycl_pool *pool);

/* Counts an allocation of `size` bytes and hands out a held block of its
 * bin; NULL if there is none (pycl_pool_status() says PYCL_POOL_MISS) or the
 * record cannot be made (CL_OUT_OF_HOST_MEMORY). The record is returned rather
 * than stored through an output pointer: Python's hot path needs no output
 * cell. Never calls the driver (its CPython wrapper keeps the GIL). */
struct pycl_pooled *pycl_pool_take(struct pycl_pool *pool, size_t size);
/* pycl_pool_take for an allocation already counted (a retry). */
struct pycl_pooled *pycl_pool_retake(struct pycl_pool *pool, size_t size);
/* The collection budget (pycl.budget) of a pool's blocks, counted here so
 * that neither an allocation nor a release runs Python for it: the bytes of
 * blocks handed out since the last call, and in *returned those of blocks
 * returned (released or collected); both counts restart. From now on
 * pycl_pool_take refuses (PYCL_POOL_SETTLE) once `step` bytes have been
 * handed out; 0: never. */
size_t pycl_pool_settle(struct pycl_pool *pool, size_t step, size_t *returned);
/* Hands out `block` (a cl_mem or a struct pycl_svm * of the bin's size, just
 * allocated) for `size` bytes; the pool takes a reference of its own. NULL
 * if the record cannot be made (CL_OUT_OF_HOST_MEMORY). */
struct pycl_pooled *pycl_pool_adopt(struct pycl_pool *pool, size_t size, void *block);
/* Why this thread's last pycl_pool_take or pycl_pool_adopt returned NULL. */
cl_int pycl_pool_status(void);
/* The block goes back to its bin (or is freed if the pool no longer holds
 * blocks) and the record is freed: the ffi.gc destructor of records. */
void pycl_pool_return(struct pycl_pooled *pooled);

/* Frees held blocks, largest bins first, until at most `target` bytes are
 * held; returns the bytes freed. */
size_t pycl_pool_free_held(struct pycl_pool *pool, size_t target);
/* From now on returned blocks are freed; frees the held ones (bytes freed). */
size_t pycl_pool_stop_holding(struct pycl_pool *pool);
void pycl_pool_count_oom_retry(struct pycl_pool *pool);
void pycl_pool_get_stats(struct pycl_pool *pool, struct pycl_pool_stats *stats);
/* Restarts the peak counters from the current values. */
void pycl_pool_reset_peak(struct pycl_pool *pool);
/* The blocks found in the bins by walking them (tests compare it with the
 * held_blocks counter). */
size_t pycl_pool_count_held(struct pycl_pool *pool);
/* One more reference to an SVM allocation, for a pool that adopts it
 * (pycl_svm_free drops it; svm.c). */
void pycl_svm_ref(struct pycl_svm *svm);
