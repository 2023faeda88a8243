#include <stdlib.h>

#include "fill.h"

/* The entries this file uses must exist in the running pycl's table: `size`
 * says how much of the table the shim that filled it knows. */
#define HAS_ENTRY(cl, entry) \
    ((cl)->size >= offsetof(struct pycl_dispatcher, entry) + sizeof((cl)->entry) && (cl)->entry != NULL)

/* The buffer's size in cl_uint elements, through the dispatcher. */
static cl_int element_count(const struct pycl_dispatcher *cl, cl_mem buffer, size_t *elements)
{
    size_t bytes = 0;
    cl_int status = cl->mem_get_info(buffer, CL_MEM_SIZE, sizeof bytes, &bytes, NULL);
    *elements = bytes / sizeof(cl_uint);
    return status;
}

cl_int embed_fill(const struct pycl_dispatcher *cl, cl_command_queue queue, cl_mem buffer, cl_uint value,
                  size_t first, size_t count)
{
    if (!cl || !HAS_ENTRY(cl, enqueue_fill_buffer) || !HAS_ENTRY(cl, event_release))
        return CL_INVALID_VALUE;
    size_t elements;
    cl_int status = element_count(cl, buffer, &elements);
    if (status != CL_SUCCESS)
        return status;
    if (first > elements || count > elements - first)
        return CL_INVALID_VALUE;
    cl_event done = NULL;
    status = cl->enqueue_fill_buffer(queue, buffer, &value, sizeof value, first * sizeof value, count * sizeof value,
                                     0, NULL, &done);
    if (status != CL_SUCCESS)
        return status;
    status = cl->event_wait(1, &done);
    cl->event_release(done);
    return status;
}

cl_int embed_write_ramp(const struct pycl_dispatcher *cl, cl_command_queue queue, cl_mem buffer, cl_uint start,
                        cl_uint step, size_t count)
{
    if (!cl || !HAS_ENTRY(cl, enqueue_write_buffer))
        return CL_INVALID_VALUE;
    size_t elements;
    cl_int status = element_count(cl, buffer, &elements);
    if (status != CL_SUCCESS)
        return status;
    if (count > elements)
        return CL_INVALID_VALUE;
    cl_uint *ramp = malloc(count ? count * sizeof *ramp : 1);
    if (!ramp)
        return CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < count; ++i)
        ramp[i] = start + (cl_uint)i * step;
    status = cl->enqueue_write_buffer(queue, buffer, CL_TRUE, 0, count * sizeof *ramp, ramp, 0, NULL, NULL);
    free(ramp);
    return status;
}
