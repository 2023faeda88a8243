/* The runtime functions that came after image.h's (runtime.c), in a header
 * of its own because the dispatcher (embed.h) only appends: OpenCL 1.2's
 * separate compilation and linking, programs of built-in kernels, unloading a
 * platform's compiler and partitioning a device; OpenCL 2.1's kernel clones,
 * sub-group queries, device timers and a context's default device queue;
 * event callbacks relayed to a thread of the shim's (callback.c).
 * Each dispatches through the object's vendor table and answers
 * PYCL_UNAVAILABLE where the platform is older than the function. */

cl_int pycl_program_compile(cl_program program, cl_uint num_devices, const cl_device_id *devices, const char *options,
                            cl_uint num_headers, const cl_program *headers, const char **header_names);
cl_int pycl_program_link(cl_context context, cl_uint num_devices, const cl_device_id *devices, const char *options,
                         cl_uint num_programs, const cl_program *programs, cl_program *program);
cl_int pycl_program_create_with_built_in_kernels(cl_context context, cl_uint num_devices, const cl_device_id *devices,
                                                 const char *kernel_names, cl_program *program);
cl_int pycl_platform_unload_compiler(cl_platform_id platform);
cl_int pycl_device_create_sub_devices(cl_device_id device, const cl_device_partition_property *properties,
                                      cl_uint num_devices, cl_device_id *devices, cl_uint *num_devices_ret);
cl_int pycl_kernel_clone(cl_kernel kernel, cl_kernel *clone);
cl_int pycl_kernel_get_sub_group_info(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param,
                                      size_t input_size, const void *input, size_t size, void *value, size_t *size_ret);
cl_int pycl_device_host_timer(cl_device_id device, cl_ulong *host_timestamp);
cl_int pycl_device_and_host_timer(cl_device_id device, cl_ulong *device_timestamp, cl_ulong *host_timestamp);
cl_int pycl_context_set_default_device_queue(cl_context context, cl_device_id device, cl_command_queue queue);
/* clSetEventCallback through the shim's relay (callback.c): callback(status,
 * user_data) runs on the shim's one callback thread, in the order the driver
 * called back, never on a driver's thread nor inside the call that completed
 * the event. */
cl_int pycl_event_set_relayed_callback(cl_event event, cl_int status, void (*callback)(cl_int, void *),
                                       void *user_data);
