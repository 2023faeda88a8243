/* Shared virtual memory (cl_shim/src/svm.c): allocations that own their
 * queue-ordered free, SVM transfers, maps and kernel arguments. Every entry
 * point needs OpenCL 2.0 (clEnqueueSVMMigrateMem: 2.1) and returns
 * PYCL_UNAVAILABLE below that.
 *
 * An SVM pointer has no reference count, so the shim gives it one: a
 * pycl_svm holds the pointer with the retained context and (when bound) the
 * retained in-order queue its free is enqueued on. Its references are the
 * Python owner (SVMAllocation, whose ffi.gc destructor is pycl_svm_free) and
 * every live mapping (pycl_svm_mapping); the memory is freed when the last one
 * goes, on the bound queue with clEnqueueSVMFree (collected allocations in
 * per-queue batches, see pycl_svm_drain), else at once with clSVMFree.
 * Destructors never block and never release a queue or a context themselves:
 * what they drop goes to a pending list that later (Python-initiated) shim
 * calls drain, reading completion flags that the free commands set, without
 * waiting. */

struct pycl_svm {
    uintptr_t address; /* the pointer as allocated (0 for size 0), an int for Python */
    void *ptr;         /* NULL for size 0 and once the free is enqueued */
    size_t size;
    cl_context context;           /* retained */
    cl_command_queue queue;       /* retained; NULL when unbound */
    cl_uint refs;                 /* the owner + each live mapping (under the shim's lock) */
    cl_uint maps;                 /* live mappings (for the owner's explicit release) */
    cl_event after;               /* retained: the last implicit unmap, which the free waits for */
    cl_command_queue after_queue; /* retained: that unmap's queue */
};

/* clSVMAlloc. size 0: no driver call, ptr NULL. A NULL result is
 * CL_MEM_OBJECT_ALLOCATION_FAILURE. queue (may be NULL) is retained. */
cl_int pycl_svm_alloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment,
                      cl_command_queue queue, struct pycl_svm **svm);
/* The owner's reference: the ffi.gc destructor. Frees the memory when no
 * mapping holds it (queued on the bound queue, else clSVMFree). Never blocks. */
void pycl_svm_free(struct pycl_svm *svm);
/* Enqueues the free now on `queue` (NULL: the bound queue) after `wait_list`;
 * *event (may be NULL) is the free command (for size 0: a marker). Afterwards
 * the allocation holds no memory; pycl_svm_free still has to run.
 * CL_INVALID_COMMAND_QUEUE if no queue is given or bound, CL_INVALID_OPERATION
 * while a mapping is live, CL_INVALID_VALUE if already freed. */
cl_int pycl_svm_enqueue_release(struct pycl_svm *svm, cl_command_queue queue, cl_uint num_events,
                                const cl_event *wait_list, cl_event *event);
/* Rebinds the free to `queue`: a marker on the old queue, waited for by a
 * barrier on the new one (both events released). */
cl_int pycl_svm_bind(struct pycl_svm *svm, cl_command_queue queue);
/* Unbinds: clFinish on the old queue (blocking), which is then dropped. */
cl_int pycl_svm_unbind(struct pycl_svm *svm);

/* The shim's pending work: frees gathered in per-queue batches (the frees of
 * collected allocations are enqueued 64 at a time, or per 4 MiB), frees still
 * running, and queue/context references that destructors dropped.
 * pycl_svm_drain enqueues the batches and releases what has completed;
 * wait != 0 first finishes the queues of the running frees (blocking).
 * Returns how many entries remain. */
size_t pycl_svm_drain(int wait);
/* Frees whose clEnqueueSVMFree failed in a destructor (memory leaked rather
 * than freed under running commands). For tests. */
size_t pycl_svm_leaked(void);

cl_int pycl_enqueue_svm_memcpy(cl_command_queue queue, cl_bool blocking, void *dst, const void *src, size_t size,
                               cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int pycl_enqueue_svm_memfill(cl_command_queue queue, void *ptr, const void *pattern, size_t pattern_size,
                                size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int pycl_enqueue_svm_migrate(cl_command_queue queue, cl_uint num_pointers, const void **pointers,
                                const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events,
                                const cl_event *wait_list, cl_event *event);
cl_int pycl_kernel_set_arg_svm_pointer(cl_kernel kernel, cl_uint index, const void *ptr);
cl_int pycl_kernel_set_exec_info(cl_kernel kernel, cl_kernel_exec_info param, size_t size, const void *value);

/* A map of SVM memory that owns what its unmap needs: the retained queue and
 * a reference to the allocation (NULL for memory pycl did not allocate), so
 * the implicit unmap of pycl_svm_mapping_free precedes the free whatever order
 * the collector takes. */
struct pycl_svm_mapping {
    cl_command_queue queue; /* retained */
    struct pycl_svm *svm;   /* a reference, or NULL */
    void *ptr;              /* NULL once unmapped */
    cl_event unmap_event;   /* retained: the unmap command, once enqueued */
};
/* clEnqueueSVMMap of size bytes at ptr; *event (always returned) is the map
 * command. size 0: a marker, and no unmap later. */
cl_int pycl_svm_map(cl_command_queue queue, cl_bool blocking, cl_map_flags flags, struct pycl_svm *svm, void *ptr,
                    size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event,
                    struct pycl_svm_mapping **mapping);
/* Enqueues the unmap on `queue` (NULL: the mapping's queue). CL_INVALID_VALUE
 * if already unmapped. */
cl_int pycl_svm_unmap(struct pycl_svm_mapping *mapping, cl_command_queue queue, cl_uint num_events,
                      const cl_event *wait_list, cl_event *event);
/* The ffi.gc destructor: unmaps if still mapped (non-blocking), drops the
 * allocation reference, frees. */
void pycl_svm_mapping_free(struct pycl_svm_mapping *mapping);
