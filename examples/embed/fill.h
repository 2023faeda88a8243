/* A downstream module's C code that uses OpenCL through pycl's dispatcher:
 * no libOpenCL is linked, and no OpenCL header is needed (pycl_shim.h
 * declares the types and constants). */
#include "pycl_shim.h"

/* Fills `count` cl_uint values of `buffer` from element `first` with `value`
 * (clEnqueueFillBuffer on `queue`) and waits for the fill. */
cl_int embed_fill(const struct pycl_dispatcher *cl, cl_command_queue queue, cl_mem buffer, cl_uint value,
                  size_t first, size_t count);
/* Writes start, start + step, ... into the first `count` cl_uint values of
 * `buffer` (a blocking clEnqueueWriteBuffer of a ramp made here). */
cl_int embed_write_ramp(const struct pycl_dispatcher *cl, cl_command_queue queue, cl_mem buffer, cl_uint start,
                        cl_uint step, size_t count);
