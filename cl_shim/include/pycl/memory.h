/* Memory objects and buffer transfers (cl_shim/src/memory.c). */

/* clCreateBufferWithProperties (OpenCL 3.0) when properties are given, else
 * clCreateBuffer; properties may be NULL. */
cl_int pycl_buffer_create(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags, size_t size,
                          void *host_ptr, cl_mem *buffer);
cl_int pycl_buffer_create_sub(cl_mem buffer, cl_mem_flags flags, size_t origin, size_t size, cl_mem *sub_buffer);
/* The ffi.gc destructor of the reference pycl_buffer_create_sub returned:
 * sub-buffers of one parent are released youngest first (an NVIDIA defect,
 * see sub_buffer.c). Other references to a sub-buffer use pycl_mem_release. */
void pycl_sub_buffer_release(cl_mem sub_buffer);
cl_int pycl_mem_get_info(cl_mem mem, cl_mem_info param, size_t size, void *value, size_t *size_ret);
cl_int pycl_mem_retain(cl_mem mem);
void pycl_mem_release(cl_mem mem);

cl_int pycl_enqueue_read_buffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                void *ptr, cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int pycl_enqueue_write_buffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                 const void *ptr, cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int pycl_enqueue_copy_buffer(cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset,
                                size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event);
/* The rect transfers. Pitches of 0 mean what OpenCL says (row = region[0],
 * slice = region[1] * row). A call the spec allows whose buffer side, counted
 * in whole slices from its offset, passes the end of the buffer (NVIDIA
 * refuses those, see memory.c) goes to the driver as up to three pieces of the
 * same bytes, chained through events: wait_list goes to the first, blocking
 * and event to the last, so the event completes after all of them (its
 * profiling times are the last piece's). Other calls go as they are. If a
 * piece after the first fails (PoCL refuses some as overlapping on one
 * buffer), the pieces enqueued stay: a copy puts a barrier after them, a read
 * or write waits for them before it returns the error. */
cl_int pycl_enqueue_read_buffer_rect(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                     const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
                                     size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                                     size_t host_slice_pitch, void *ptr, cl_uint num_events, const cl_event *wait_list,
                                     cl_event *event);
cl_int pycl_enqueue_write_buffer_rect(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                      const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
                                      size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                                      size_t host_slice_pitch, const void *ptr, cl_uint num_events,
                                      const cl_event *wait_list, cl_event *event);
/* Sub-buffers are replaced by their parent and a shifted origin: PoCL 3.0 and
 * 3.1 crash in clEnqueueCopyBufferRect when a sub-buffer is either side. */
cl_int pycl_enqueue_copy_buffer_rect(cl_command_queue queue, cl_mem src, cl_mem dst, const size_t *src_origin,
                                     const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
                                     size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                                     cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int pycl_enqueue_fill_buffer(cl_command_queue queue, cl_mem buffer, const void *pattern, size_t pattern_size,
                                size_t offset, size_t size, cl_uint num_events, const cl_event *wait_list,
                                cl_event *event);
cl_int pycl_enqueue_map_buffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                               size_t offset, size_t size, cl_uint num_events, const cl_event *wait_list,
                               cl_event *event, void **mapped);
cl_int pycl_enqueue_unmap(cl_command_queue queue, cl_mem mem, void *mapped, cl_uint num_events,
                          const cl_event *wait_list, cl_event *event);
cl_int pycl_enqueue_migrate(cl_command_queue queue, cl_uint num_mems, const cl_mem *mems, cl_mem_migration_flags flags,
                            cl_uint num_events, const cl_event *wait_list, cl_event *event);

/* A buffer mapping that owns what its unmap needs: the queue, the memory
 * object and the map command's event are retained, so the implicit unmap of
 * pycl_mapping_free can run in any order relative to the release of the Python
 * objects (it is MemoryMap's ffi.gc destructor: no Python, never blocks). */
struct pycl_mapping {
    cl_command_queue queue;
    cl_mem mem;
    cl_event map_event; /* retained for a non-blocking map, else NULL (complete on return) */
    void *ptr;          /* NULL once unmapped */
};
/* clEnqueueMapBuffer; on success *mapping owns the map and *event (always
 * returned, the caller's reference) is its command. */
cl_int pycl_mapping_map_buffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                               size_t offset, size_t size, cl_uint num_events, const cl_event *wait_list,
                               cl_event *event, struct pycl_mapping **mapping);
/* Enqueues the unmap on `queue` (NULL: the mapping queue) after `wait_list`
 * and the map command. CL_INVALID_VALUE if already unmapped. */
cl_int pycl_mapping_unmap(struct pycl_mapping *mapping, cl_command_queue queue, cl_uint num_events,
                          const cl_event *wait_list, cl_event *event);
/* Unmaps if still mapped (non-blocking, no event), releases, frees. */
void pycl_mapping_free(struct pycl_mapping *mapping);

/* Calls clEnqueueCopyBufferP2PAMD (cl_amd_copy_buffer_p2p) through the
 * function pointer that pycl_get_extension_function returned. */
cl_int pycl_enqueue_copy_buffer_p2p_amd(void *function, cl_command_queue queue, cl_mem src, cl_mem dst,
                                        size_t src_offset, size_t dst_offset, size_t size, cl_uint num_events,
                                        const cl_event *wait_list, cl_event *event);
