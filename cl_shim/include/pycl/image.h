/* Images, image formats, image transfers, samplers and pipes
 * (cl_shim/src/image.c). Same conventions as runtime.h: a CL status (or
 * PYCL_UNAVAILABLE) per call, results through pointers. Images and pipes are
 * cl_mem objects: pycl_mem_get_info, pycl_mem_retain and pycl_mem_release
 * (memory.h) serve them too. */

cl_int pycl_image_get_supported_formats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                                        cl_uint num_entries, cl_image_format *formats, cl_uint *num_formats);
/* clCreateImageWithProperties (OpenCL 3.0) when properties are given (a
 * 0-terminated list; an empty one falls back below 3.0), else clCreateImage
 * (OpenCL 1.2). */
cl_int pycl_image_create(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
                         const cl_image_format *format, const cl_image_desc *desc, void *host_ptr, cl_mem *image);
cl_int pycl_image_get_info(cl_mem image, cl_image_info param, size_t size, void *value, size_t *size_ret);

cl_int pycl_enqueue_read_image(cl_command_queue queue, cl_mem image, cl_bool blocking, const size_t *origin,
                               const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr,
                               cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int pycl_enqueue_write_image(cl_command_queue queue, cl_mem image, cl_bool blocking, const size_t *origin,
                                const size_t *region, size_t row_pitch, size_t slice_pitch, const void *ptr,
                                cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int pycl_enqueue_copy_image(cl_command_queue queue, cl_mem src, cl_mem dst, const size_t *src_origin,
                               const size_t *dst_origin, const size_t *region, cl_uint num_events,
                               const cl_event *wait_list, cl_event *event);
cl_int pycl_enqueue_copy_image_to_buffer(cl_command_queue queue, cl_mem src_image, cl_mem dst_buffer,
                                         const size_t *src_origin, const size_t *region, size_t dst_offset,
                                         cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int pycl_enqueue_copy_buffer_to_image(cl_command_queue queue, cl_mem src_buffer, cl_mem dst_image, size_t src_offset,
                                         const size_t *dst_origin, const size_t *region, cl_uint num_events,
                                         const cl_event *wait_list, cl_event *event);
/* clEnqueueFillImage (OpenCL 1.2): fill_color is a float4, int4 or uint4
 * (16 bytes) according to the image's channel type. */
cl_int pycl_enqueue_fill_image(cl_command_queue queue, cl_mem image, const void *fill_color, const size_t *origin,
                               const size_t *region, cl_uint num_events, const cl_event *wait_list, cl_event *event);
/* clEnqueueMapImage into a pycl_mapping (memory.h), which owns the unmap;
 * *row_pitch and *slice_pitch are what the driver chose. */
cl_int pycl_mapping_map_image(cl_command_queue queue, cl_mem image, cl_bool blocking, cl_map_flags flags,
                              const size_t *origin, const size_t *region, size_t *row_pitch, size_t *slice_pitch,
                              cl_uint num_events, const cl_event *wait_list, cl_event *event,
                              struct pycl_mapping **mapping);

/* clCreateSamplerWithProperties on OpenCL 2.0+; below, clCreateSampler when
 * the properties hold nothing but NORMALIZED_COORDS, ADDRESSING_MODE and
 * FILTER_MODE (each defaulting as in 2.0: CL_TRUE, CL_ADDRESS_CLAMP,
 * CL_FILTER_NEAREST), else PYCL_UNAVAILABLE. properties may be NULL. */
cl_int pycl_sampler_create(cl_context context, const cl_sampler_properties *properties, cl_sampler *sampler);
cl_int pycl_sampler_get_info(cl_sampler sampler, cl_sampler_info param, size_t size, void *value, size_t *size_ret);
cl_int pycl_sampler_retain(cl_sampler sampler);
void pycl_sampler_release(cl_sampler sampler);

/* clCreatePipe (OpenCL 2.0); properties may be NULL. */
cl_int pycl_pipe_create(cl_context context, cl_mem_flags flags, cl_uint packet_size, cl_uint max_packets,
                        const cl_pipe_properties *properties, cl_mem *pipe);
cl_int pycl_pipe_get_info(cl_mem pipe, cl_pipe_info param, size_t size, void *value, size_t *size_ret);
