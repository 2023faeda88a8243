/* Platforms, devices, contexts, queues, events, programs and kernels
 * (cl_shim/src/runtime.c). Every function returns a CL status (or
 * PYCL_UNAVAILABLE) and hands results back through pointers; the release
 * functions return nothing so that they can serve as ffi.gc destructors. */

cl_int pycl_platform_get_info(cl_platform_id platform, cl_platform_info param, size_t size, void *value,
                              size_t *size_ret);
cl_int pycl_platform_get_devices(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                                 cl_device_id *devices, cl_uint *num_devices);

cl_int pycl_device_get_info(cl_device_id device, cl_device_info param, size_t size, void *value, size_t *size_ret);
cl_int pycl_device_retain(cl_device_id device);
void pycl_device_release(cl_device_id device);

cl_int pycl_context_create(const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
                           cl_context *context);
cl_int pycl_context_create_from_type(cl_platform_id platform, const cl_context_properties *properties,
                                     cl_device_type type, cl_context *context);
cl_int pycl_context_get_info(cl_context context, cl_context_info param, size_t size, void *value, size_t *size_ret);
cl_int pycl_context_retain(cl_context context);
void pycl_context_release(cl_context context);

/* clCreateCommandQueueWithProperties on OpenCL 2.0+, else clCreateCommandQueue
 * when the properties hold nothing but CL_QUEUE_PROPERTIES. */
cl_int pycl_queue_create(cl_context context, cl_device_id device, const cl_queue_properties *properties,
                         cl_command_queue *queue);
cl_int pycl_queue_get_info(cl_command_queue queue, cl_command_queue_info param, size_t size, void *value,
                           size_t *size_ret);
cl_int pycl_queue_retain(cl_command_queue queue);
void pycl_queue_release(cl_command_queue queue);
cl_int pycl_queue_flush(cl_command_queue queue);
cl_int pycl_queue_finish(cl_command_queue queue);

cl_int pycl_event_wait(cl_uint num_events, const cl_event *events);
cl_int pycl_event_get_info(cl_event event, cl_event_info param, size_t size, void *value, size_t *size_ret);
cl_int pycl_event_get_profiling_info(cl_event event, cl_profiling_info param, size_t size, void *value,
                                     size_t *size_ret);
cl_int pycl_event_set_callback(cl_event event, cl_int status, void (*callback)(cl_event, cl_int, void *),
                               void *user_data);
cl_int pycl_event_retain(cl_event event);
void pycl_event_release(cl_event event);
cl_int pycl_user_event_create(cl_context context, cl_event *event);
cl_int pycl_user_event_set_status(cl_event event, cl_int status);
/* clEnqueueMarkerWithWaitList / clEnqueueBarrierWithWaitList (OpenCL 1.2). */
cl_int pycl_enqueue_marker(cl_command_queue queue, cl_uint num_events, const cl_event *wait_list, cl_event *event);
cl_int pycl_enqueue_barrier(cl_command_queue queue, cl_uint num_events, const cl_event *wait_list, cl_event *event);

cl_int pycl_program_create_with_source(cl_context context, const char *source, size_t length, cl_program *program);
cl_int pycl_program_create_with_binary(cl_context context, cl_uint num_devices, const cl_device_id *devices,
                                       const size_t *lengths, const unsigned char **binaries, cl_int *binary_status,
                                       cl_program *program);
cl_int pycl_program_build(cl_program program, cl_uint num_devices, const cl_device_id *devices, const char *options);
cl_int pycl_program_get_info(cl_program program, cl_program_info param, size_t size, void *value, size_t *size_ret);
cl_int pycl_program_get_build_info(cl_program program, cl_device_id device, cl_program_build_info param, size_t size,
                                   void *value, size_t *size_ret);
cl_int pycl_program_retain(cl_program program);
void pycl_program_release(cl_program program);

cl_int pycl_kernel_create(cl_program program, const char *name, cl_kernel *kernel);
cl_int pycl_kernel_create_all(cl_program program, cl_uint num_entries, cl_kernel *kernels, cl_uint *num_kernels);
cl_int pycl_kernel_get_info(cl_kernel kernel, cl_kernel_info param, size_t size, void *value, size_t *size_ret);
cl_int pycl_kernel_get_work_group_info(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param,
                                       size_t size, void *value, size_t *size_ret);
cl_int pycl_kernel_get_arg_info(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param, size_t size, void *value,
                                size_t *size_ret);
cl_int pycl_kernel_set_arg(cl_kernel kernel, cl_uint index, size_t size, const void *value);
cl_int pycl_kernel_retain(cl_kernel kernel);
void pycl_kernel_release(cl_kernel kernel);
cl_int pycl_enqueue_nd_range_kernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                    const size_t *global_offset, const size_t *global_size, const size_t *local_size,
                                    cl_uint num_events, const cl_event *wait_list, cl_event *event);
