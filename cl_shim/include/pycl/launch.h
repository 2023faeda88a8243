/* Kernel launch in one call (launch.c): the arguments a kernel object has
 * changed since its last launch are set, then the NDRange is enqueued. Python
 * keeps one pycl_kernel_args per kernel object and writes the new values into
 * its cells between launches; work sizes travel as scalars, so a launch
 * allocates nothing (cffi arrays are dear on CPython: docs/design.md,
 * "Enqueue routes"). pycl-internal, not in the dispatcher: C code calls
 * clSetKernelArg and clEnqueueNDRangeKernel through the runtime.h entries. */

/* marks[i]: how argument i is set at the next launch, 0 once it has been
 * (except PYCL_ARG_EVERY_LAUNCH). */
#define PYCL_ARG_CLEAN 0
#define PYCL_ARG_BYTES 1 /* sizes[i] bytes at values[i] (clSetKernelArg) */
#define PYCL_ARG_SVM   2 /* values[i] is the pointer (clSetKernelArgSVMPointer) */
#define PYCL_ARG_LOCAL 3 /* sizes[i] bytes of __local memory (value NULL) */
/* sizes[i] bytes at values[i], set at every launch and never cleared: a
 * scalar of a declared dtype, which every kernel call writes anew, so Python
 * need not mark it each time */
#define PYCL_ARG_EVERY_LAUNCH 4
/* values[i] is an OpenCL object's handle (a cl_mem, cl_sampler): sizes[i]
 * bytes at &values[i], so that the handle needs no box of its own */
#define PYCL_ARG_HANDLE 5

/* pycl_launch's answer for work sizes that pycl's checks refuse (an entry
 * above 2**63 - 1, or max_groups work-groups or more): nothing was set or
 * enqueued, and the Python layer names the mistake. */
#define PYCL_LAUNCH_REFUSED -9998

struct pycl_kernel_args {
    cl_uint count;        /* the kernel's number of arguments */
    unsigned char *marks; /* count PYCL_ARG_* */
    size_t *sizes;        /* count */
    void **values;        /* count */
    cl_uint failed;       /* the index whose setting failed, else count */
    size_t max_groups;    /* 0, or the number of work-groups at which the device fails */
    cl_event event;       /* the event of the last launch */
};

/* Sets every marked argument, in index order, clearing each mark once set.
 * On the first failure returns its status with args->failed = its index; the
 * arguments after it keep their marks. */
cl_int pycl_kernel_set_marked(cl_kernel kernel, struct pycl_kernel_args *args);
/* pycl_kernel_set_marked, then clEnqueueNDRangeKernel over work_dim (1 to 3)
 * dimensions of global size g0..g2 and local size l0..l2 (l0 = 0: none, the
 * driver chooses), without an offset; the event goes to args->event. Where no
 * local size is given, every work-item counts as a work-group for
 * args->max_groups. Its few arguments are the point: each one costs CPython
 * a conversion in every call. Launches with an offset set the marked
 * arguments and call pycl_enqueue_nd_range_kernel. */
cl_int pycl_launch(cl_command_queue queue, cl_kernel kernel, struct pycl_kernel_args *args, cl_uint work_dim, size_t g0,
                   size_t g1, size_t g2, size_t l0, size_t l1, size_t l2, cl_uint num_events,
                   const cl_event *wait_list);
/* pycl_launch of one dimension, the most common launch, in five arguments
 * fewer. */
cl_int pycl_launch_1d(cl_command_queue queue, cl_kernel kernel, struct pycl_kernel_args *args, size_t global_size,
                      size_t local_size, cl_uint num_events, const cl_event *wait_list);
