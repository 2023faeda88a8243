/* OpenCL 1.2's program functions beyond a build (runtime.c): separate
 * compilation and linking, programs of built-in kernels, and unloading a
 * platform's compiler. Each dispatches through the object's vendor table and
 * answers PYCL_UNAVAILABLE where the platform is older than 1.2. A header of
 * its own because the dispatcher (embed.h) only appends: these entries came
 * after image.h's. */

cl_int pycl_program_compile(cl_program program, cl_uint num_devices, const cl_device_id *devices, const char *options,
                            cl_uint num_headers, const cl_program *headers, const char **header_names);
cl_int pycl_program_link(cl_context context, cl_uint num_devices, const cl_device_id *devices, const char *options,
                         cl_uint num_programs, const cl_program *programs, cl_program *program);
cl_int pycl_program_create_with_built_in_kernels(cl_context context, cl_uint num_devices, const cl_device_id *devices,
                                                 const char *kernel_names, cl_program *program);
cl_int pycl_platform_unload_compiler(cl_platform_id platform);
