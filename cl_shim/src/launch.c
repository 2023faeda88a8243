/* Kernel launch in one call (launch.h). */
#include "dispatch.h"

#define SIZE_LIMIT (SIZE_MAX >> 1) /* pycl's limit for every size: 2**63 - 1 */

cl_int pycl_kernel_set_marked(cl_kernel kernel, struct pycl_kernel_args *args)
{
    args->failed = args->count;
    for (cl_uint i = 0; i < args->count; i++) {
        cl_int status;
        switch (args->marks[i]) {
        case PYCL_ARG_CLEAN:
            continue;
        case PYCL_ARG_BYTES:
            status = pycl_kernel_set_arg(kernel, i, args->sizes[i], args->values[i]);
            break;
        case PYCL_ARG_SVM:
            status = pycl_kernel_set_arg_svm_pointer(kernel, i, args->values[i]);
            break;
        case PYCL_ARG_HANDLE:
            status = pycl_kernel_set_arg(kernel, i, args->sizes[i], &args->values[i]);
            break;
        case PYCL_ARG_LOCAL:
            status = pycl_kernel_set_arg(kernel, i, args->sizes[i], NULL);
            break;
        case PYCL_ARG_EVERY_LAUNCH:
            status = pycl_kernel_set_arg(kernel, i, args->sizes[i], args->values[i]);
            if (status != CL_SUCCESS) {
                args->failed = i;
                return status;
            }
            continue;
        default:
            status = CL_INVALID_VALUE;
        }
        if (status != CL_SUCCESS) {
            args->failed = i;
            return status;
        }
        args->marks[i] = PYCL_ARG_CLEAN;
    }
    return CL_SUCCESS;
}

/* The number of work-groups, saturating at `cap`: where no local size is
 * given the driver chooses, and every work-item may be a group. */
static size_t group_count(cl_uint work_dim, const size_t *global, const size_t *local, size_t cap)
{
    size_t groups = 1;
    for (cl_uint d = 0; d < work_dim; d++) {
        size_t n = global[d];
        if (local && local[d])
            n = n / local[d] + (n % local[d] != 0);
        if (n == 0)
            return 0;
        if (groups > cap / n)
            return cap;
        groups *= n;
    }
    return groups;
}

cl_int pycl_launch(cl_command_queue queue, cl_kernel kernel, struct pycl_kernel_args *args, cl_uint work_dim, size_t g0,
                   size_t g1, size_t g2, size_t l0, size_t l1, size_t l2, cl_uint num_events, const cl_event *wait_list)
{
    const size_t global[3] = {g0, g1, g2}, local[3] = {l0, l1, l2};
    const size_t *local_size = l0 ? local : NULL;
    args->failed = args->count;
    if (work_dim < 1 || work_dim > 3)
        return CL_INVALID_WORK_DIMENSION;
    /* A 0 in a local size crashes or hangs PoCL 3.1 and Oclgrind: the
     * caller's general path names it. */
    for (cl_uint d = 0; d < work_dim; d++)
        if (global[d] > SIZE_LIMIT || local[d] > SIZE_LIMIT || (local_size && !local[d]))
            return PYCL_LAUNCH_REFUSED;
    if (args->max_groups && group_count(work_dim, global, local_size, args->max_groups) >= args->max_groups)
        return PYCL_LAUNCH_REFUSED;
    cl_int status = pycl_kernel_set_marked(kernel, args);
    if (status != CL_SUCCESS)
        return status;
    return pycl_enqueue_nd_range_kernel(queue, kernel, work_dim, NULL, global, local_size, num_events, wait_list,
                                        &args->event);
}

cl_int pycl_launch_1d(cl_command_queue queue, cl_kernel kernel, struct pycl_kernel_args *args, size_t global_size,
                      size_t local_size, cl_uint num_events, const cl_event *wait_list)
{
    return pycl_launch(queue, kernel, args, 1, global_size, 1, 1, local_size, 1, 1, num_events, wait_list);
}
