/* Scalar-argument forms of the calls whose OpenCL signature takes size_t[3]
 * origins and regions (scalars.c): pycl's Python layer passes plain ints, so
 * a small rect or image-region transfer allocates no arrays (cffi arrays are
 * dear on CPython: docs/design.md, "Enqueue routes"), and a short form of
 * buffer creation. pycl-internal, not in the dispatcher: C code calls the
 * full forms. `reading`: 1 reads into host memory, 0 writes from it. */
cl_int pycl_host_rect(cl_command_queue queue, cl_mem buffer, int reading, cl_bool blocking, size_t buffer_x,
                      size_t buffer_y, size_t buffer_z, size_t host_x, size_t host_y, size_t host_z, size_t region_x,
                      size_t region_y, size_t region_z, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                      size_t host_row_pitch, size_t host_slice_pitch, void *ptr, cl_uint num_events,
                      const cl_event *wait_list, cl_event *event);
cl_int pycl_image_region(cl_command_queue queue, cl_mem image, int reading, cl_bool blocking, size_t origin_x,
                         size_t origin_y, size_t origin_z, size_t region_x, size_t region_y, size_t region_z,
                         size_t row_pitch, size_t slice_pitch, void *ptr, cl_uint num_events, const cl_event *wait_list,
                         cl_event *event);
/* clCreateBuffer without properties or host memory in four arguments
 * (Buffer's common case: each argument of a cffi call costs on CPython). */
cl_int pycl_buffer_new(cl_context context, cl_mem_flags flags, size_t size, cl_mem *buffer);
