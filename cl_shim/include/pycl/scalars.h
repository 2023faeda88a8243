/* Scalar-argument forms of the calls whose OpenCL signature takes size_t[3]
 * origins and regions (scalars.c): pycl's Python layer passes plain ints, so
 * a small rect or image-region transfer, fill or map allocates no arrays
 * (cffi arrays are dear on CPython: docs/design.md, "Enqueue routes"); maps
 * leave all they return in one struct; and short forms of buffer creation and
 * of an event's wait and status. pycl-internal, not in the dispatcher: C code
 * calls the full forms.
 * `reading`: 1 reads into host memory, 0 writes from it. */
cl_int pycl_host_rect(cl_command_queue queue, cl_mem buffer, int reading, cl_bool blocking, size_t buffer_x,
                      size_t buffer_y, size_t buffer_z, size_t host_x, size_t host_y, size_t host_z, size_t region_x,
                      size_t region_y, size_t region_z, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                      size_t host_row_pitch, size_t host_slice_pitch, void *ptr, cl_uint num_events,
                      const cl_event *wait_list, cl_event *event);
/* pycl_host_rect after the checks of the general path's rect_side (pycl/
 * _rect.py), on both sides: a region of at least 1 in each dimension, pitches
 * (0: the region's tight ones) of at least a row and a slice of it, a slice
 * pitch that is a multiple of the row pitch, and a box inside the side's
 * bytes (`buffer_size`, `host_size`), in arithmetic that cannot overflow.
 * Refuses a blocking copy of at least `stage_from` bytes (the general path
 * stages those). Where it refuses, it enqueues nothing and returns
 * PYCL_RECT_REFUSED: the caller takes the general path, which checks again
 * and names the mistake. No wait list (the one-pass route has none). */
#define PYCL_RECT_REFUSED 1
cl_int pycl_host_rect_checked(cl_command_queue queue, cl_mem buffer, int reading, cl_bool blocking, size_t buffer_x,
                              size_t buffer_y, size_t buffer_z, size_t host_x, size_t host_y, size_t host_z,
                              size_t region_x, size_t region_y, size_t region_z, size_t buffer_row_pitch,
                              size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch,
                              size_t buffer_size, void *ptr, size_t host_size, size_t stage_from, cl_event *event);
cl_int pycl_image_region(cl_command_queue queue, cl_mem image, int reading, cl_bool blocking, size_t origin_x,
                         size_t origin_y, size_t origin_z, size_t region_x, size_t region_y, size_t region_z,
                         size_t row_pitch, size_t slice_pitch, void *ptr, cl_uint num_events, const cl_event *wait_list,
                         cl_event *event);

/* What a map leaves for the Python layer, in one struct the caller owns
 * (pycl keeps one per thread): the map command's event (the caller's
 * reference), the mapping record (memory.h), the mapped address, and for
 * an image the pitches the driver chose. */
struct pycl_map_result {
    cl_event event;
    struct pycl_mapping *mapping;
    intptr_t address;
    size_t row_pitch;
    size_t slice_pitch;
};
/* pycl_mapping_map_buffer and pycl_mapping_map_image into a result. */
cl_int pycl_buffer_map(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags, size_t offset,
                       size_t size, cl_uint num_events, const cl_event *wait_list, struct pycl_map_result *result);
cl_int pycl_image_map(cl_command_queue queue, cl_mem image, cl_bool blocking, cl_map_flags flags, size_t origin_x,
                      size_t origin_y, size_t origin_z, size_t region_x, size_t region_y, size_t region_z,
                      cl_uint num_events, const cl_event *wait_list, struct pycl_map_result *result);
cl_int pycl_image_fill(cl_command_queue queue, cl_mem image, const void *fill_color, size_t origin_x, size_t origin_y,
                       size_t origin_z, size_t region_x, size_t region_y, size_t region_z, cl_uint num_events,
                       const cl_event *wait_list, cl_event *event);
cl_int pycl_image_copy(cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_x, size_t src_y, size_t src_z,
                       size_t dst_x, size_t dst_y, size_t dst_z, size_t region_x, size_t region_y, size_t region_z,
                       cl_uint num_events, const cl_event *wait_list, cl_event *event);
/* Between a buffer (from or at `offset`) and an image: `into_image` 1 copies
 * the buffer into the image, 0 the image into the buffer. */
cl_int pycl_buffer_image_copy(cl_command_queue queue, cl_mem buffer, cl_mem image, int into_image, size_t offset,
                              size_t origin_x, size_t origin_y, size_t origin_z, size_t region_x, size_t region_y,
                              size_t region_z, cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int pycl_buffer_rect_copy(cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_x, size_t src_y, size_t src_z,
                             size_t dst_x, size_t dst_y, size_t dst_z, size_t region_x, size_t region_y,
                             size_t region_z, size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
                             size_t dst_slice_pitch, cl_uint num_events, const cl_event *wait_list, cl_event *event);
/* clCreateBuffer without properties or host memory, in three arguments and
 * without an output cell (Buffer's common case: each argument of a cffi call,
 * and each read of a cell, costs on CPython): the new buffer's address, or
 * where creation failed its CL status, which is negative and so never an
 * address. */
intptr_t pycl_buffer_new(cl_context context, cl_mem_flags flags, size_t size);
/* pycl_buffer_create_sub in the same form: the new sub-buffer's address, or
 * its CL status where creation failed. Released by pycl_sub_buffer_release. */
intptr_t pycl_sub_buffer_new(cl_mem buffer, cl_mem_flags flags, size_t origin, size_t size);

/* pycl_event_wait of one event, passed by value (no list to fill). */
cl_int pycl_event_wait_one(cl_event event);
/* The event's CL_EVENT_COMMAND_EXECUTION_STATUS, or the query's error code
 * where it fails (negative, like the status of a failed command). */
cl_int pycl_event_status(cl_event event);
