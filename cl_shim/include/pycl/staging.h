/* Staged copies between host memory and buffers (linear or rect), SVM and images through pinned memory
 * (cl_shim/src/staging.c).
 *
 * A GPU driver copies pageable host memory through a small pinned buffer of
 * its own, one thread at a time, far below the speed it reaches from pinned
 * memory (NVIDIA OpenCL, CUDA 13: docs/quirks.md; docs/design.md, "Staging",
 * has the figures). A stager owns
 * `slots` pinned buffers (CL_MEM_ALLOC_HOST_PTR, kept mapped) of `chunk`
 * bytes; a staged copy splits the transfer into chunks that `threads` host
 * threads copy to or from the slots with memcpy while the device moves other
 * slots, so host copies overlap device transfers. */

struct pycl_stager;

/* Maps the slots with `queue` (blocking). */
cl_int pycl_stager_create(cl_context context, cl_command_queue queue, size_t chunk, cl_uint slots, cl_uint threads,
                          struct pycl_stager **stager);
/* ffi.gc destructor: enqueues the unmaps on the stager's queue, releases the
 * slots; never blocks. */
void pycl_stager_free(struct pycl_stager *stager);
/* Copy `size` bytes from host `src` into `dst` at `dst_offset`. When it
 * returns, `src` has been read completely (the host may reuse it); `event`
 * (may be NULL) completes when the data is in `dst`. The queue must be
 * in-order. One staged copy at a time per stager (others wait). It waits for
 * the queue to drain slots, so it may block even when not `blocking`. */
cl_int pycl_staged_write(struct pycl_stager *stager, cl_command_queue queue, cl_mem dst, size_t dst_offset,
                         const void *src, size_t size, cl_bool blocking, cl_uint num_events, const cl_event *wait_list,
                         cl_event *event);
/* Copy `size` bytes of `src` from `src_offset` into host `dst`; blocking: the
 * data is in `dst` when it returns. */
cl_int pycl_staged_read(struct pycl_stager *stager, cl_command_queue queue, cl_mem src, size_t src_offset, void *dst,
                        size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event);
/* The same between host memory and SVM (`dst` or `src`, an SVM pointer of
 * the stager's context, through clEnqueueSVMMemcpy, OpenCL 2.0); both
 * blocking: the data is in place when they return. */
cl_int pycl_staged_svm_write(struct pycl_stager *stager, cl_command_queue queue, void *dst, const void *src,
                             size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int pycl_staged_svm_read(struct pycl_stager *stager, cl_command_queue queue, void *dst, const void *src, size_t size,
                            cl_uint num_events, const cl_event *wait_list, cl_event *event);
/* Blocking box copies between host memory and an image (`region_x` pixels
 * of `row_bytes` bytes per row) or a buffer rect (`region_x` bytes; the
 * buffer's origin and pitches as clEnqueueReadBufferRect takes them). `host`
 * is the box's first byte; its rows are `host_row_pitch` apart and its slices
 * `host_slice_pitch` (a 1D image array, `rows_are_layers`: its layers are the
 * rows). Each chunk is rows of one slice, packed in a slot; rows longer than
 * a slot go the driver's way (blocking). */
cl_int pycl_staged_image(struct pycl_stager *stager, cl_command_queue queue, cl_mem image, int reading, size_t origin_x,
                         size_t origin_y, size_t origin_z, size_t region_x, size_t region_y, size_t region_z,
                         size_t row_bytes, int rows_are_layers, size_t host_row_pitch, size_t host_slice_pitch,
                         void *host, cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int pycl_staged_rect(struct pycl_stager *stager, cl_command_queue queue, cl_mem buffer, int reading, size_t buffer_x,
                        size_t buffer_y, size_t buffer_z, size_t region_x, size_t region_y, size_t region_z,
                        size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                        size_t host_slice_pitch, void *host, cl_uint num_events, const cl_event *wait_list,
                        cl_event *event);
/* Copy `size` bytes of `src` (from `src_offset`, on `src_queue`) into `dst`
 * (at `dst_offset`, on `dst_queue`) through the stager's slots, which must be
 * of `src_queue`'s context; `dst_queue` may be of another context or device.
 * Each chunk is read into a slot on the source device and written from it on
 * the destination device, so both devices copy at once. No byte moves before
 * `src_events` (of the source context), `dst_events` (of the destination
 * context) and the commands enqueued earlier on either queue complete.
 * `blocking`: the calling thread drives the chunks on the two queues and
 * returns when every byte is in `dst`. Non-blocking, with `src_side` and
 * `dst_side` (in-order queues of the two devices that nothing else uses, for
 * drivers that take enqueues from several threads): the stager's copy thread
 * drives the chunks on those, as fast as a blocking copy, and the host never
 * waits; later commands of `dst_queue` wait for the copy. Non-blocking
 * without them: everything is enqueued at once, ordered by events relayed
 * between the contexts from callbacks. Copies run one after another in the
 * order they were asked for. `*event` (required; of the destination
 * context) completes when every byte is in `dst`, or fails with the first
 * failed chunk's status. */
cl_int pycl_staged_copy_between(struct pycl_stager *stager, cl_command_queue src_queue, cl_command_queue src_side,
                                cl_mem src, size_t src_offset, cl_command_queue dst_queue, cl_command_queue dst_side,
                                cl_mem dst, size_t dst_offset, size_t size, cl_uint num_src_events,
                                const cl_event *src_events, cl_uint num_dst_events, const cl_event *dst_events,
                                int blocking, cl_event *event);
