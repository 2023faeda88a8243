/* The shim's entry points as a table of function pointers, for C code of
 * other modules (cl_shim/src/embed.c). A downstream cffi module that includes
 * pycl's declarations (ffibuilder.include(pycl.build_ffi.ffibuilder)) gets the
 * table from Python (pycl.dispatcher()) and calls OpenCL through pycl's
 * loader without linking libOpenCL; C code that is not cffi takes the address
 * (pycl.dispatcher_address()) and casts it. Read by cffi's cdef too: plain
 * declarations only.
 *
 * One entry per public function of loader.h, runtime.h, memory.h, svm.h,
 * image.h and program.h, in header order, named without the pycl_ prefix; each behaves as
 * the function it points to (same status convention, same ownership).
 * tests/test_embed.py fails when an area function is missing here.
 *
 * Compatibility: entries are only ever appended. `version` is the
 * PYCL_DISPATCHER_VERSION the shim was built with, `size` its
 * sizeof(struct pycl_dispatcher): a module built against a newer header can
 * check `size > offsetof(struct pycl_dispatcher, entry)` before using an
 * entry the running pycl may lack.
 *
 * The loader is initialized by Python (any platform query, e.g.
 * pycl.get_platforms(), or making a context): get_platforms() answers
 * CL_PLATFORM_NOT_FOUND_KHR before that. Handles from pycl (int_ptr) work at
 * once. */

#define PYCL_DISPATCHER_VERSION 4

struct pycl_dispatcher {
    cl_uint version; /* PYCL_DISPATCHER_VERSION */
    cl_uint size;    /* sizeof(struct pycl_dispatcher) */
    /* loader.h */
    cl_int (*loader_init)(const char *extra_icd_dirs);
    const char *(*loader_report)(void);
    cl_int (*get_platforms)(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms);
    cl_int (*platform_version)(cl_platform_id platform, cl_uint *version);
    cl_int (*device_version)(cl_device_id device, cl_uint *version);
    cl_uint (*forced_version)(void);
    const char *(*unavailable_reason)(void);
    const char *(*error_name)(cl_int status);
    cl_int (*get_extension_function)(cl_platform_id platform, const char *name, void **function);
    /* runtime.h */
    cl_int (*platform_get_info)(cl_platform_id platform, cl_platform_info param, size_t size, void *value,
                                size_t *size_ret);
    cl_int (*platform_get_devices)(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                                   cl_device_id *devices, cl_uint *num_devices);
    cl_int (*device_get_info)(cl_device_id device, cl_device_info param, size_t size, void *value, size_t *size_ret);
    cl_int (*device_retain)(cl_device_id device);
    void (*device_release)(cl_device_id device);
    cl_int (*context_create)(const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
                             cl_context *context);
    cl_int (*context_create_from_type)(cl_platform_id platform, const cl_context_properties *properties,
                                       cl_device_type type, cl_context *context);
    cl_int (*context_get_info)(cl_context context, cl_context_info param, size_t size, void *value, size_t *size_ret);
    cl_int (*context_retain)(cl_context context);
    void (*context_release)(cl_context context);
    cl_int (*queue_create)(cl_context context, cl_device_id device, const cl_queue_properties *properties,
                           cl_command_queue *queue);
    cl_int (*queue_get_info)(cl_command_queue queue, cl_command_queue_info param, size_t size, void *value,
                             size_t *size_ret);
    cl_int (*queue_retain)(cl_command_queue queue);
    void (*queue_release)(cl_command_queue queue);
    cl_int (*queue_flush)(cl_command_queue queue);
    cl_int (*queue_finish)(cl_command_queue queue);
    cl_int (*event_wait)(cl_uint num_events, const cl_event *events);
    cl_int (*event_get_info)(cl_event event, cl_event_info param, size_t size, void *value, size_t *size_ret);
    cl_int (*event_get_profiling_info)(cl_event event, cl_profiling_info param, size_t size, void *value,
                                       size_t *size_ret);
    cl_int (*event_set_callback)(cl_event event, cl_int status, void (*callback)(cl_event, cl_int, void *),
                                 void *user_data);
    cl_int (*event_retain)(cl_event event);
    void (*event_release)(cl_event event);
    cl_int (*user_event_create)(cl_context context, cl_event *event);
    cl_int (*user_event_set_status)(cl_event event, cl_int status);
    cl_int (*enqueue_marker)(cl_command_queue queue, cl_uint num_events, const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_barrier)(cl_command_queue queue, cl_uint num_events, const cl_event *wait_list, cl_event *event);
    cl_int (*program_create_with_source)(cl_context context, const char *source, size_t length, cl_program *program);
    cl_int (*program_create_with_binary)(cl_context context, cl_uint num_devices, const cl_device_id *devices,
                                         const size_t *lengths, const unsigned char **binaries, cl_int *binary_status,
                                         cl_program *program);
    cl_int (*program_build)(cl_program program, cl_uint num_devices, const cl_device_id *devices, const char *options);
    cl_int (*program_get_info)(cl_program program, cl_program_info param, size_t size, void *value, size_t *size_ret);
    cl_int (*program_get_build_info)(cl_program program, cl_device_id device, cl_program_build_info param, size_t size,
                                     void *value, size_t *size_ret);
    cl_int (*program_retain)(cl_program program);
    void (*program_release)(cl_program program);
    cl_int (*kernel_create)(cl_program program, const char *name, cl_kernel *kernel);
    cl_int (*kernel_create_all)(cl_program program, cl_uint num_entries, cl_kernel *kernels, cl_uint *num_kernels);
    cl_int (*kernel_get_info)(cl_kernel kernel, cl_kernel_info param, size_t size, void *value, size_t *size_ret);
    cl_int (*kernel_get_work_group_info)(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param,
                                         size_t size, void *value, size_t *size_ret);
    cl_int (*kernel_get_arg_info)(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param, size_t size, void *value,
                                  size_t *size_ret);
    cl_int (*kernel_set_arg)(cl_kernel kernel, cl_uint index, size_t size, const void *value);
    cl_int (*kernel_retain)(cl_kernel kernel);
    void (*kernel_release)(cl_kernel kernel);
    cl_int (*enqueue_nd_range_kernel)(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                      const size_t *global_offset, const size_t *global_size, const size_t *local_size,
                                      cl_uint num_events, const cl_event *wait_list, cl_event *event);
    /* memory.h */
    cl_int (*buffer_create)(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags, size_t size,
                            void *host_ptr, cl_mem *buffer);
    cl_int (*buffer_create_sub)(cl_mem buffer, cl_mem_flags flags, size_t origin, size_t size, cl_mem *sub_buffer);
    void (*sub_buffer_release)(cl_mem sub_buffer);
    cl_int (*mem_get_info)(cl_mem mem, cl_mem_info param, size_t size, void *value, size_t *size_ret);
    cl_int (*mem_retain)(cl_mem mem);
    void (*mem_release)(cl_mem mem);
    cl_int (*enqueue_read_buffer)(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                  void *ptr, cl_uint num_events, const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_write_buffer)(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                   const void *ptr, cl_uint num_events, const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_copy_buffer)(cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset,
                                  size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_read_buffer_rect)(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                       const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
                                       size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                                       size_t host_slice_pitch, void *ptr, cl_uint num_events,
                                       const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_write_buffer_rect)(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                        const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
                                        size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                                        size_t host_slice_pitch, const void *ptr, cl_uint num_events,
                                        const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_copy_buffer_rect)(cl_command_queue queue, cl_mem src, cl_mem dst, const size_t *src_origin,
                                       const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
                                       size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                                       cl_uint num_events, const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_fill_buffer)(cl_command_queue queue, cl_mem buffer, const void *pattern, size_t pattern_size,
                                  size_t offset, size_t size, cl_uint num_events, const cl_event *wait_list,
                                  cl_event *event);
    cl_int (*enqueue_map_buffer)(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                                 size_t offset, size_t size, cl_uint num_events, const cl_event *wait_list,
                                 cl_event *event, void **mapped);
    cl_int (*enqueue_unmap)(cl_command_queue queue, cl_mem mem, void *mapped, cl_uint num_events,
                            const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_migrate)(cl_command_queue queue, cl_uint num_mems, const cl_mem *mems,
                              cl_mem_migration_flags flags, cl_uint num_events, const cl_event *wait_list,
                              cl_event *event);
    cl_int (*mapping_map_buffer)(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                                 size_t offset, size_t size, cl_uint num_events, const cl_event *wait_list,
                                 cl_event *event, struct pycl_mapping **mapping);
    cl_int (*mapping_unmap)(struct pycl_mapping *mapping, cl_command_queue queue, cl_uint num_events,
                            const cl_event *wait_list, cl_event *event);
    void (*mapping_free)(struct pycl_mapping *mapping);
    cl_int (*enqueue_copy_buffer_p2p_amd)(void *function, cl_command_queue queue, cl_mem src, cl_mem dst,
                                          size_t src_offset, size_t dst_offset, size_t size, cl_uint num_events,
                                          const cl_event *wait_list, cl_event *event);
    /* svm.h */
    cl_int (*svm_alloc)(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment,
                        cl_command_queue queue, struct pycl_svm **svm);
    void (*svm_free)(struct pycl_svm *svm);
    cl_int (*svm_enqueue_release)(struct pycl_svm *svm, cl_command_queue queue, cl_uint num_events,
                                  const cl_event *wait_list, cl_event *event);
    cl_int (*svm_bind)(struct pycl_svm *svm, cl_command_queue queue);
    cl_int (*svm_unbind)(struct pycl_svm *svm);
    size_t (*svm_drain)(int wait);
    size_t (*svm_leaked)(void);
    cl_int (*enqueue_svm_memcpy)(cl_command_queue queue, cl_bool blocking, void *dst, const void *src, size_t size,
                                 cl_uint num_events, const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_svm_memfill)(cl_command_queue queue, void *ptr, const void *pattern, size_t pattern_size,
                                  size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_svm_migrate)(cl_command_queue queue, cl_uint num_pointers, const void **pointers,
                                  const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events,
                                  const cl_event *wait_list, cl_event *event);
    cl_int (*kernel_set_arg_svm_pointer)(cl_kernel kernel, cl_uint index, const void *ptr);
    cl_int (*kernel_set_exec_info)(cl_kernel kernel, cl_kernel_exec_info param, size_t size, const void *value);
    cl_int (*svm_map)(cl_command_queue queue, cl_bool blocking, cl_map_flags flags, struct pycl_svm *svm, void *ptr,
                      size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event,
                      struct pycl_svm_mapping **mapping);
    cl_int (*svm_unmap)(struct pycl_svm_mapping *mapping, cl_command_queue queue, cl_uint num_events,
                        const cl_event *wait_list, cl_event *event);
    void (*svm_mapping_free)(struct pycl_svm_mapping *mapping);
    /* image.h */
    cl_int (*image_get_supported_formats)(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                                          cl_uint num_entries, cl_image_format *formats, cl_uint *num_formats);
    cl_int (*image_create)(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
                           const cl_image_format *format, const cl_image_desc *desc, void *host_ptr, cl_mem *image);
    cl_int (*image_get_info)(cl_mem image, cl_image_info param, size_t size, void *value, size_t *size_ret);
    cl_int (*enqueue_read_image)(cl_command_queue queue, cl_mem image, cl_bool blocking, const size_t *origin,
                                 const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr,
                                 cl_uint num_events, const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_write_image)(cl_command_queue queue, cl_mem image, cl_bool blocking, const size_t *origin,
                                  const size_t *region, size_t row_pitch, size_t slice_pitch, const void *ptr,
                                  cl_uint num_events, const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_copy_image)(cl_command_queue queue, cl_mem src, cl_mem dst, const size_t *src_origin,
                                 const size_t *dst_origin, const size_t *region, cl_uint num_events,
                                 const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_copy_image_to_buffer)(cl_command_queue queue, cl_mem src_image, cl_mem dst_buffer,
                                           const size_t *src_origin, const size_t *region, size_t dst_offset,
                                           cl_uint num_events, const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_copy_buffer_to_image)(cl_command_queue queue, cl_mem src_buffer, cl_mem dst_image,
                                           size_t src_offset, const size_t *dst_origin, const size_t *region,
                                           cl_uint num_events, const cl_event *wait_list, cl_event *event);
    cl_int (*enqueue_fill_image)(cl_command_queue queue, cl_mem image, const void *fill_color, const size_t *origin,
                                 const size_t *region, cl_uint num_events, const cl_event *wait_list, cl_event *event);
    cl_int (*mapping_map_image)(cl_command_queue queue, cl_mem image, cl_bool blocking, cl_map_flags flags,
                                const size_t *origin, const size_t *region, size_t *row_pitch, size_t *slice_pitch,
                                cl_uint num_events, const cl_event *wait_list, cl_event *event,
                                struct pycl_mapping **mapping);
    cl_int (*sampler_create)(cl_context context, const cl_sampler_properties *properties, cl_sampler *sampler);
    cl_int (*sampler_get_info)(cl_sampler sampler, cl_sampler_info param, size_t size, void *value, size_t *size_ret);
    cl_int (*sampler_retain)(cl_sampler sampler);
    void (*sampler_release)(cl_sampler sampler);
    cl_int (*pipe_create)(cl_context context, cl_mem_flags flags, cl_uint packet_size, cl_uint max_packets,
                          const cl_pipe_properties *properties, cl_mem *pipe);
    cl_int (*pipe_get_info)(cl_mem pipe, cl_pipe_info param, size_t size, void *value, size_t *size_ret);
    /* program.h (version 2) */
    cl_int (*program_compile)(cl_program program, cl_uint num_devices, const cl_device_id *devices, const char *options,
                              cl_uint num_headers, const cl_program *headers, const char **header_names);
    cl_int (*program_link)(cl_context context, cl_uint num_devices, const cl_device_id *devices, const char *options,
                           cl_uint num_programs, const cl_program *programs, cl_program *program);
    cl_int (*program_create_with_built_in_kernels)(cl_context context, cl_uint num_devices, const cl_device_id *devices,
                                                   const char *kernel_names, cl_program *program);
    cl_int (*platform_unload_compiler)(cl_platform_id platform);
    /* program.h (version 3) */
    cl_int (*device_create_sub_devices)(cl_device_id device, const cl_device_partition_property *properties,
                                        cl_uint num_devices, cl_device_id *devices, cl_uint *num_devices_ret);
    cl_int (*kernel_clone)(cl_kernel kernel, cl_kernel *clone);
    cl_int (*kernel_get_sub_group_info)(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param,
                                        size_t input_size, const void *input, size_t size, void *value,
                                        size_t *size_ret);
    cl_int (*device_host_timer)(cl_device_id device, cl_ulong *host_timestamp);
    cl_int (*device_and_host_timer)(cl_device_id device, cl_ulong *device_timestamp, cl_ulong *host_timestamp);
    cl_int (*context_set_default_device_queue)(cl_context context, cl_device_id device, cl_command_queue queue);
    /* program.h (version 4) */
    cl_int (*event_set_relayed_callback)(cl_event event, cl_int status, void (*callback)(cl_int, void *),
                                         void *user_data);
};

/* The shim's table (static, valid for the life of the process). */
const struct pycl_dispatcher *pycl_dispatcher(void);
