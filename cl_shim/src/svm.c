/* Shared virtual memory: allocations that own their queue-ordered free (see
 * svm.h), SVM transfers, maps and kernel arguments.
 *
 * Rules for the destructors (pycl_svm_free, pycl_svm_mapping_free), which run
 * from the garbage collector at any time, interpreter exit included: no
 * Python, no blocking CL call (no clFinish, no clWaitForEvents, and no release
 * of a queue or context, whose last release may wait for the device). What
 * they drop goes to the pending list below; calls that Python makes drain it,
 * reading completion flags without waiting. The one driver callback,
 * free_done, only calls clSVMFree (what the driver itself would do) and sets
 * a flag.
 *
 * PoCL 3.0 stores the svm_pointers array of clEnqueueSVMFree and reads it on
 * its worker thread when the command runs (3.1 copies it), although the spec
 * lets the caller reuse it at once: PyOpenCL passes a stack array and aborts
 * with "double free or corruption" at exit (docs/quirks.md). So each queued free
 * gets a heap node holding the array, which the shim frees only after the
 * command has run. This costs one small malloc per free; it can go when no
 * supported PoCL is older than 3.1. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

#define V20 PYCL_V(2, 0)
#define V21 PYCL_V(2, 1)

/* A queued free of one or more pointers. The driver calls free_done
 * (clEnqueueSVMFree's pfn_free_func) when the command executes; it frees the
 * memory with clSVMFree, as the driver would itself, and marks the node done.
 * The shim frees the node (and with it the pointer array) at a later drain,
 * after the callback has returned. A flag set by the command itself costs
 * less than an event per free (an event to create, query and release:
 * docs/design.md, "Lifetimes and deferred releases"), and the callback neither
 * blocks nor releases anything. */
#define BATCH_POINTERS 64
#define BATCH_BYTES    ((size_t)4 << 20)

struct queued_free {
    cl_context context; /* for clSVMFree; kept alive by the pending item's queue reference */
    cl_uint count;
    int done;                       /* set last by free_done */
    void *pointers[BATCH_POINTERS]; /* handed to clEnqueueSVMFree; PoCL 3.0 reads it when the command runs */
};

static void free_done(cl_command_queue queue, cl_uint count, void **pointers, void *user_data)
{
    struct queued_free *node = user_data;
    const struct pycl_icd_dispatch *t = pycl_table_of(node->context);
    for (cl_uint i = 0; i < node->count; ++i)
        t->clSVMFree(node->context, node->pointers[i]);
    __atomic_store_n(&node->done, 1, __ATOMIC_RELEASE);
}

/* One pending item: a queued free (node set) and/or references to drop once
 * it has completed. */
struct pending {
    struct queued_free *node; /* NULL: nothing to wait for */
    cl_command_queue queue;   /* a reference to release */
    cl_context context;       /* a reference to release */
};

static pthread_mutex_t svm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pending *pending;
static size_t pending_count, pending_capacity;
static size_t full_scan_at = 16;
static size_t leaked_frees;

static const struct pycl_icd_dispatch *table(const void *object)
{
    return pycl_table_of(object);
}

/* Under svm_lock. If the list cannot grow, the item is dropped: its
 * references leak and its node stays allocated, which is safe. */
static void push_pending(struct queued_free *node, cl_command_queue queue, cl_context context)
{
    if (!node && !queue && !context)
        return;
    if (pending_count == pending_capacity) {
        size_t capacity = pending_capacity ? 2 * pending_capacity : 64;
        struct pending *grown = realloc(pending, capacity * sizeof *grown);
        if (!grown)
            return;
        pending = grown;
        pending_capacity = capacity;
    }
    struct pending *p = &pending[pending_count++];
    p->node = node;
    p->queue = queue;
    p->context = context;
}

static int event_done(cl_event event)
{
    cl_int status = CL_COMPLETE;
    const struct pycl_icd_dispatch *t = table(event);
    if (!t || t->clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) != CL_SUCCESS)
        return 1;                 /* an event the driver no longer knows is not running */
    return status <= CL_COMPLETE; /* CL_COMPLETE (0) or an error */
}

/* Under svm_lock: frees the nodes of completed frees (no CL call). With
 * `taken`, also moves every item that has nothing left to wait for into
 * *taken (the caller releases its references outside the lock). Scans from
 * the front and stops at the first running free (an in-order queue completes
 * in order), with a full scan whenever the list has doubled, so the cost
 * stays O(1) amortized. */
static size_t settle(int full, struct pending **taken)
{
    size_t n_taken = 0;
    if (pending_count >= full_scan_at)
        full = 1;
    size_t keep = 0;
    int running_seen = 0;
    for (size_t i = 0; i < pending_count; ++i) {
        struct pending p = pending[i];
        if (p.node && !(running_seen && !full)) {
            if (__atomic_load_n(&p.node->done, __ATOMIC_ACQUIRE)) {
                free(p.node);
                p.node = NULL;
            } else {
                running_seen = 1;
            }
        }
        if (!p.node && taken && *taken) {
            (*taken)[n_taken++] = p;
            continue;
        }
        pending[keep++] = p;
    }
    pending_count = keep;
    if (full)
        full_scan_at = pending_count * 2 > 16 ? pending_count * 2 : 16;
    return n_taken;
}

static void release_items(struct pending *items, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (items[i].queue)
            table(items[i].queue)->clReleaseCommandQueue(items[i].queue);
        if (items[i].context)
            table(items[i].context)->clReleaseContext(items[i].context);
    }
}

/* Python-initiated: settle and release what is done, outside the lock. */
static size_t drain(int full)
{
    if (!__atomic_load_n(&pending_count, __ATOMIC_RELAXED))
        return 0;
    pthread_mutex_lock(&svm_lock);
    struct pending *taken = malloc(pending_count * sizeof *taken);
    size_t n = settle(full, &taken);
    size_t left = pending_count;
    pthread_mutex_unlock(&svm_lock);
    if (taken) {
        release_items(taken, n);
        free(taken);
    }
    return left;
}

/* The opportunistic drain of the calls below: only once some items have
 * gathered, so that an allocation does not pay a lock, a malloc and a
 * context release for the one item its predecessor's free left (measured on
 * PoCL 3.0: docs/design.md, "Lifetimes and deferred releases"). Items wait a
 * little longer;
 * pycl_svm_drain still drains everything. */
#define DRAIN_AT 32

static void drain_if_many(void)
{
    if (__atomic_load_n(&pending_count, __ATOMIC_RELAXED) >= DRAIN_AT)
        drain(0);
}

static void flush_batches(void);

size_t pycl_svm_drain(int wait)
{
    pthread_mutex_lock(&svm_lock);
    flush_batches();
    pthread_mutex_unlock(&svm_lock);
    if (wait) {
        /* clFinish each queue that has a running free, once (outside the
         * lock; the retain keeps the queue valid meanwhile). A free whose
         * command never runs (a failed wait list) stays pending. */
        pthread_mutex_lock(&svm_lock);
        size_t n = 0;
        cl_command_queue *queues = malloc((pending_count + 1) * sizeof *queues);
        for (size_t i = 0; queues && i < pending_count; ++i) {
            cl_command_queue q = pending[i].node ? pending[i].queue : NULL;
            size_t j = 0;
            while (q && j < n && queues[j] != q)
                ++j;
            if (q && j == n) {
                table(q)->clRetainCommandQueue(q);
                queues[n++] = q;
            }
        }
        pthread_mutex_unlock(&svm_lock);
        for (size_t j = 0; j < n; ++j) {
            table(queues[j])->clFinish(queues[j]);
            table(queues[j])->clReleaseCommandQueue(queues[j]);
        }
        free(queues);
    }
    return drain(1);
}

size_t pycl_svm_leaked(void)
{
    return __atomic_load_n(&leaked_frees, __ATOMIC_RELAXED);
}

/* Under svm_lock. Enqueues the free of svm->ptr on `queue` after `wait_list`
 * and svm->after; the pending item owns the node and a reference to the
 * queue until the command has run: `queue_ref` (and `context_ref`, may be
 * NULL) if the caller hands its references over, else a new one. *event (may
 * be NULL) is the caller's. On failure the caller keeps its references.
 * Never blocks. */
static cl_int enqueue_free(struct pycl_svm *svm, cl_command_queue queue, cl_uint num_events, const cl_event *wait_list,
                           cl_event *event, cl_command_queue queue_ref, cl_context context_ref)
{
    const struct pycl_icd_dispatch *t = table(queue);
    struct queued_free *node = malloc(sizeof *node);
    cl_event small[16];
    cl_uint count = num_events + (svm->after ? 1 : 0);
    cl_event *all = count <= 16 ? small : malloc(count * sizeof *all);
    if (!node || !all) {
        free(node);
        if (all != small)
            free(all);
        return CL_OUT_OF_HOST_MEMORY;
    }
    if (num_events)
        memcpy(all, wait_list, num_events * sizeof *all);
    if (svm->after)
        all[num_events] = svm->after;
    node->pointers[0] = svm->ptr;
    node->context = svm->context;
    node->count = 1;
    node->done = 0;
    cl_int status = t->clEnqueueSVMFree(queue, 1, node->pointers, free_done, node, count, count ? all : NULL, event);
    if (all != small)
        free(all);
    if (status != CL_SUCCESS) {
        free(node);
        return status;
    }
    t->clFlush(queue); /* start it: nothing else may flush this queue */
    if (!queue_ref) {
        t->clRetainCommandQueue(queue);
        queue_ref = queue;
    }
    push_pending(node, queue_ref, context_ref);
    svm->ptr = NULL;
    return CL_SUCCESS;
}

/* Collected allocations of one queue are freed together: the free of each
 * goes into its queue's batch, which is enqueued as one clEnqueueSVMFree when
 * it holds BATCH_POINTERS pointers or BATCH_BYTES bytes, or when Python calls
 * pycl_svm_drain. Enqueuing later than the release is always safe (the free
 * still follows every command enqueued before it); one command per 64 frees
 * instead of one each spares the driver's worker a wake-up per free, which is
 * most of the cost of a collected allocation on PoCL. At most BATCH_BYTES per
 * queue wait this way. */
#define MAX_BATCHES 8

struct batch {
    cl_command_queue queue;   /* retained by the batch; NULL: slot free */
    cl_context context;       /* retained by the batch */
    struct queued_free *node; /* the pointers gathered so far */
    size_t bytes;
};

static struct batch batches[MAX_BATCHES];

/* Under svm_lock. Enqueues the batch's free; the pending item takes the
 * batch's references. Never blocks. */
static void flush_batch(struct batch *b)
{
    const struct pycl_icd_dispatch *t = table(b->queue);
    struct queued_free *node = b->node;
    cl_int status = t->clEnqueueSVMFree(b->queue, node->count, node->pointers, free_done, node, 0, NULL, NULL);
    if (status == CL_SUCCESS) {
        t->clFlush(b->queue);
        push_pending(node, b->queue, b->context);
    } else {
        __atomic_add_fetch(&leaked_frees, node->count, __ATOMIC_RELAXED); /* never free under running work */
        free(node);
        push_pending(NULL, b->queue, b->context);
    }
    memset(b, 0, sizeof *b);
}

static void flush_batches(void)
{
    for (int i = 0; i < MAX_BATCHES; ++i)
        if (batches[i].queue)
            flush_batch(&batches[i]);
}

/* Under svm_lock. Adds svm->ptr to its queue's batch; 0 if no batch could be
 * had (the caller enqueues the free alone). */
static int batch_free(struct pycl_svm *svm)
{
    struct batch *b = NULL;
    for (int i = 0; i < MAX_BATCHES && !b; ++i)
        if (batches[i].queue == svm->queue)
            b = &batches[i];
    for (int i = 0; i < MAX_BATCHES && !b; ++i) {
        if (!batches[i].queue) {
            struct queued_free *node = malloc(sizeof *node);
            if (!node)
                return 0;
            node->context = svm->context;
            node->count = 0;
            node->done = 0;
            b = &batches[i];
            b->node = node;
            b->bytes = 0;
            b->queue = svm->queue;
            b->context = svm->context;
            table(svm->queue)->clRetainCommandQueue(svm->queue);
            table(svm->context)->clRetainContext(svm->context);
        }
    }
    if (!b)
        return 0;
    b->node->pointers[b->node->count++] = svm->ptr;
    b->bytes += svm->size;
    if (b->node->count == BATCH_POINTERS || b->bytes >= BATCH_BYTES)
        flush_batch(b);
    return 1;
}

/* Under svm_lock, when the last reference goes: free the memory (queued on
 * the bound queue, or on the queue of a still-running implicit unmap, else at
 * once) and hand the references to the pending list. Never blocks. */
static void destroy(struct pycl_svm *svm)
{
    cl_command_queue queue_ref = svm->queue;
    cl_context context_ref = svm->context;
    if (svm->after && event_done(svm->after)) {
        table(svm->after)->clReleaseEvent(svm->after);
        svm->after = NULL;
    }
    if (svm->ptr) {
        cl_command_queue queue = svm->queue;
        if (!queue && svm->after && !event_done(svm->after))
            queue = svm->after_queue;
        if (queue && queue == svm->queue && !svm->after && batch_free(svm)) {
            /* in the batch; the allocation's references go to the pending list below */
        } else if (queue) {
            /* The pending free takes the allocation's own references over. */
            if (enqueue_free(svm, queue, 0, NULL, NULL, queue_ref, context_ref) == CL_SUCCESS)
                queue_ref = NULL, context_ref = NULL;
            else
                __atomic_add_fetch(&leaked_frees, 1, __ATOMIC_RELAXED); /* never free under running work */
        } else {
            table(svm->context)->clSVMFree(svm->context, svm->ptr);
        }
        svm->ptr = NULL;
    }
    if (svm->after)
        table(svm->after)->clReleaseEvent(svm->after);
    push_pending(NULL, queue_ref, context_ref);
    push_pending(NULL, svm->after_queue, NULL);
    free(svm);
}

static void unref(struct pycl_svm *svm)
{
    if (--svm->refs == 0)
        destroy(svm);
}

cl_int pycl_svm_alloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment,
                      cl_command_queue queue, struct pycl_svm **result)
{
    const struct pycl_icd_dispatch *t = table(context);
    cl_int status = pycl_dispatch_check(context, V20, "clSVMAlloc", t ? (const void *)t->clSVMAlloc : NULL, &t);
    if (status != CL_SUCCESS)
        return status;
    if (queue && table(queue) != t)
        return CL_INVALID_COMMAND_QUEUE;
    drain_if_many();
    struct pycl_svm *svm = calloc(1, sizeof *svm);
    if (!svm)
        return CL_OUT_OF_HOST_MEMORY;
    if (size) {
        svm->ptr = t->clSVMAlloc(context, flags, size, alignment);
        if (!svm->ptr) {
            free(svm);
            return CL_MEM_OBJECT_ALLOCATION_FAILURE;
        }
    }
    t->clRetainContext(context);
    if (queue)
        t->clRetainCommandQueue(queue);
    svm->address = (uintptr_t)svm->ptr;
    svm->size = size;
    svm->context = context;
    svm->queue = queue;
    svm->refs = 1;
    *result = svm;
    return CL_SUCCESS;
}

void pycl_svm_ref(struct pycl_svm *svm)
{
    pthread_mutex_lock(&svm_lock);
    ++svm->refs;
    pthread_mutex_unlock(&svm_lock);
}

void pycl_svm_free(struct pycl_svm *svm)
{
    if (!svm)
        return;
    pthread_mutex_lock(&svm_lock);
    unref(svm);
    settle(0, NULL); /* finishes completed frees: non-blocking */
    pthread_mutex_unlock(&svm_lock);
}

cl_int pycl_svm_enqueue_release(struct pycl_svm *svm, cl_command_queue queue, cl_uint num_events,
                                const cl_event *wait_list, cl_event *event)
{
    if (!svm)
        return CL_INVALID_VALUE;
    if (!queue)
        queue = svm->queue;
    if (!queue)
        return CL_INVALID_COMMAND_QUEUE;
    const struct pycl_icd_dispatch *t = table(queue);
    cl_int status =
        pycl_dispatch_check(queue, V20, "clEnqueueSVMFree", t ? (const void *)t->clEnqueueSVMFree : NULL, &t);
    if (status != CL_SUCCESS)
        return status;
    pthread_mutex_lock(&svm_lock);
    if (svm->maps)
        status = CL_INVALID_OPERATION;
    else if (svm->ptr)
        status = enqueue_free(svm, queue, num_events, wait_list, event, NULL, NULL);
    else if (svm->size)
        status = CL_INVALID_VALUE; /* already freed */
    else
        status = t->clEnqueueMarkerWithWaitList(queue, num_events, wait_list, event);
    pthread_mutex_unlock(&svm_lock);
    drain_if_many();
    return status;
}

cl_int pycl_svm_bind(struct pycl_svm *svm, cl_command_queue queue)
{
    if (!svm || !queue)
        return CL_INVALID_VALUE;
    const struct pycl_icd_dispatch *t = table(queue);
    cl_int status =
        pycl_dispatch_check(queue, V20, "clEnqueueSVMFree", t ? (const void *)t->clEnqueueSVMFree : NULL, &t);
    if (status != CL_SUCCESS)
        return status;
    pthread_mutex_lock(&svm_lock);
    cl_command_queue old = svm->queue;
    if (old && old != queue) {
        /* Work already queued on the old queue must finish before anything
         * the new queue does after this point, the free included. */
        cl_event marker = NULL;
        status = t->clEnqueueMarkerWithWaitList(old, 0, NULL, &marker);
        if (status == CL_SUCCESS) {
            status = t->clEnqueueBarrierWithWaitList(queue, 1, &marker, NULL);
            t->clReleaseEvent(marker);
        }
    }
    if (status == CL_SUCCESS && old != queue) {
        t->clRetainCommandQueue(queue);
        svm->queue = queue;
        push_pending(NULL, old, NULL);
    }
    pthread_mutex_unlock(&svm_lock);
    drain_if_many();
    return status;
}

cl_int pycl_svm_unbind(struct pycl_svm *svm)
{
    if (!svm)
        return CL_INVALID_VALUE;
    pthread_mutex_lock(&svm_lock);
    cl_command_queue old = svm->queue;
    svm->queue = NULL;
    pthread_mutex_unlock(&svm_lock);
    cl_int status = CL_SUCCESS;
    if (old) {
        status = table(old)->clFinish(old);
        table(old)->clReleaseCommandQueue(old);
    }
    drain_if_many();
    return status;
}

cl_int pycl_enqueue_svm_memcpy(cl_command_queue queue, cl_bool blocking, void *dst, const void *src, size_t size,
                               cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V20, clEnqueueSVMMemcpy, queue, blocking, dst, src, size, num_events, wait_list, event);
}

cl_int pycl_enqueue_svm_memfill(cl_command_queue queue, void *ptr, const void *pattern, size_t pattern_size,
                                size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V20, clEnqueueSVMMemFill, queue, ptr, pattern, pattern_size, size, num_events, wait_list,
                  event);
}

cl_int pycl_enqueue_svm_migrate(cl_command_queue queue, cl_uint num_pointers, const void **pointers,
                                const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events,
                                const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V21, clEnqueueSVMMigrateMem, queue, num_pointers, pointers, sizes, flags, num_events,
                  wait_list, event);
}

cl_int pycl_kernel_set_arg_svm_pointer(cl_kernel kernel, cl_uint index, const void *ptr)
{
    PYCL_DISPATCH(kernel, V20, clSetKernelArgSVMPointer, kernel, index, ptr);
}

cl_int pycl_kernel_set_exec_info(cl_kernel kernel, cl_kernel_exec_info param, size_t size, const void *value)
{
    PYCL_DISPATCH(kernel, V20, clSetKernelExecInfo, kernel, param, size, value);
}

cl_int pycl_svm_map(cl_command_queue queue, cl_bool blocking, cl_map_flags flags, struct pycl_svm *svm, void *ptr,
                    size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event,
                    struct pycl_svm_mapping **result)
{
    const struct pycl_icd_dispatch *t = table(queue);
    cl_int status = pycl_dispatch_check(queue, V20, "clEnqueueSVMMap", t ? (const void *)t->clEnqueueSVMMap : NULL, &t);
    if (status != CL_SUCCESS)
        return status;
    struct pycl_svm_mapping *m = calloc(1, sizeof *m);
    if (!m)
        return CL_OUT_OF_HOST_MEMORY;
    if (size)
        status = t->clEnqueueSVMMap(queue, blocking, flags, ptr, size, num_events, wait_list, event);
    else
        status = t->clEnqueueMarkerWithWaitList(queue, num_events, wait_list, event);
    if (status != CL_SUCCESS) {
        free(m);
        return status;
    }
    t->clRetainCommandQueue(queue);
    m->queue = queue;
    m->ptr = size ? ptr : NULL;
    if (svm) {
        pthread_mutex_lock(&svm_lock);
        ++svm->refs;
        ++svm->maps;
        pthread_mutex_unlock(&svm_lock);
        m->svm = svm;
    }
    *result = m;
    return CL_SUCCESS;
}

cl_int pycl_svm_unmap(struct pycl_svm_mapping *mapping, cl_command_queue queue, cl_uint num_events,
                      const cl_event *wait_list, cl_event *event)
{
    if (!mapping)
        return CL_INVALID_VALUE;
    if (!queue)
        queue = mapping->queue;
    const struct pycl_icd_dispatch *t = table(queue);
    cl_int status =
        pycl_dispatch_check(queue, V20, "clEnqueueSVMUnmap", t ? (const void *)t->clEnqueueSVMUnmap : NULL, &t);
    if (status != CL_SUCCESS)
        return status;
    cl_event done = NULL;
    if (mapping->ptr)
        status = t->clEnqueueSVMUnmap(queue, mapping->ptr, num_events, wait_list, &done);
    else if (mapping->unmap_event)
        return CL_INVALID_VALUE; /* already unmapped */
    else
        status = t->clEnqueueMarkerWithWaitList(queue, num_events, wait_list, &done); /* a size-0 map */
    if (status != CL_SUCCESS)
        return status;
    mapping->ptr = NULL;
    mapping->unmap_event = done;
    if (mapping->queue != queue) {
        /* The free must wait for the unmap, whichever queue it is on. */
        t->clRetainCommandQueue(queue);
        pthread_mutex_lock(&svm_lock);
        push_pending(NULL, mapping->queue, NULL);
        pthread_mutex_unlock(&svm_lock);
        mapping->queue = queue;
    }
    if (event) {
        t->clRetainEvent(done);
        *event = done;
    }
    drain_if_many();
    return CL_SUCCESS;
}

void pycl_svm_mapping_free(struct pycl_svm_mapping *mapping)
{
    if (!mapping)
        return;
    const struct pycl_icd_dispatch *t = table(mapping->queue);
    if (mapping->ptr) {
        cl_event done = NULL;
        if (t->clEnqueueSVMUnmap(mapping->queue, mapping->ptr, 0, NULL, &done) == CL_SUCCESS) {
            t->clFlush(mapping->queue);
            mapping->unmap_event = done;
        }
    }
    pthread_mutex_lock(&svm_lock);
    struct pycl_svm *svm = mapping->svm;
    if (svm) {
        --svm->maps;
        if (mapping->unmap_event && mapping->queue != svm->queue) {
            /* The free, on another queue or none, waits for the unmap (on
             * the bound in-order queue it follows the unmap anyway). */
            if (svm->after)
                t->clReleaseEvent(svm->after);
            push_pending(NULL, svm->after_queue, NULL);
            svm->after = mapping->unmap_event;
            svm->after_queue = mapping->queue;
            mapping->unmap_event = NULL;
            mapping->queue = NULL;
        }
        unref(svm);
    }
    if (mapping->unmap_event)
        t->clReleaseEvent(mapping->unmap_event);
    push_pending(NULL, mapping->queue, NULL);
    settle(0, NULL);
    pthread_mutex_unlock(&svm_lock);
    free(mapping);
}
