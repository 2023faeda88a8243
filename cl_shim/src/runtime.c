/* Platforms, devices, contexts, queues, events, programs and kernels: each
 * entry point dispatches through the object's own vendor table. The version
 * argument of PYCL_DISPATCH is the OpenCL version that introduced the entry. */
#include <stdlib.h>

#include "dispatch.h"

#define V10 PYCL_V(1, 0)
#define V11 PYCL_V(1, 1)
#define V12 PYCL_V(1, 2)
#define V20 PYCL_V(2, 0)
#define V21 PYCL_V(2, 1)
#define V30 PYCL_V(3, 0)

cl_int pycl_platform_get_info(cl_platform_id platform, cl_platform_info param, size_t size, void *value,
                              size_t *size_ret)
{
    PYCL_DISPATCH(platform, V10, clGetPlatformInfo, platform, param, size, value, size_ret);
}

cl_int pycl_platform_get_devices(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                                 cl_device_id *devices, cl_uint *num_devices)
{
    PYCL_DISPATCH(platform, V10, clGetDeviceIDs, platform, type, num_entries, devices, num_devices);
}

cl_int pycl_device_get_info(cl_device_id device, cl_device_info param, size_t size, void *value, size_t *size_ret)
{
    PYCL_DISPATCH(device, V10, clGetDeviceInfo, device, param, size, value, size_ret);
}

cl_int pycl_device_retain(cl_device_id device)
{
    PYCL_DISPATCH(device, V12, clRetainDevice, device);
}

void pycl_device_release(cl_device_id device)
{
    PYCL_DISPATCH_RELEASE(device, clReleaseDevice);
}

/* PoCL 3.0 and 3.1 (CPU) hold no reference to a sub-device from the queues
 * made on it. A queue that the driver's thread frees (with the last event of
 * it) after the last clReleaseDevice of its sub-device reads the freed device
 * in clReleaseCommandQueue and crashes; PyOpenCL 2026.1.4 crashes the same way.
 * So a context made on sub-devices holds a reference to each until the driver
 * frees the context, which comes after every queue, program, memory object and
 * event of it: through the context's destructor callback (OpenCL 3.0, used at
 * the platform's real version). Where that cannot be set up, the context holds
 * nothing more, as before. */
struct held_devices {
    const struct pycl_icd_dispatch *table;
    cl_uint count;
    cl_device_id devices[];
};

static void release_held(struct held_devices *held)
{
    for (cl_uint i = 0; i < held->count; i++)
        held->table->clReleaseDevice(held->devices[i]);
    free(held);
}

static void release_held_devices(cl_context context, void *user_data)
{
    (void)context;
    release_held(user_data);
}

static void hold_sub_devices(cl_context context, cl_uint num_devices, const cl_device_id *devices)
{
    const struct pycl_icd_dispatch *t = pycl_table_of(context);
    if (!t || pycl_table_real_version(t) < V30 || !t->clSetContextDestructorCallback || !t->clRetainDevice ||
        !t->clReleaseDevice)
        return;
    struct held_devices *held = malloc(sizeof *held + num_devices * sizeof(cl_device_id));
    if (!held)
        return;
    held->table = t;
    held->count = 0;
    for (cl_uint i = 0; i < num_devices; i++) {
        cl_device_id parent = NULL;
        if (t->clGetDeviceInfo(devices[i], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL) == CL_SUCCESS &&
            parent && t->clRetainDevice(devices[i]) == CL_SUCCESS)
            held->devices[held->count++] = devices[i];
    }
    if (!held->count || t->clSetContextDestructorCallback(context, release_held_devices, held) != CL_SUCCESS)
        release_held(held);
}

cl_int pycl_context_create(const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
                           cl_context *context)
{
    if (!num_devices || !devices)
        return CL_INVALID_VALUE;
    const struct pycl_icd_dispatch *t = pycl_table_of(devices[0]);
    cl_int status =
        pycl_dispatch_check(devices[0], V10, "clCreateContext", t ? (const void *)t->clCreateContext : NULL, &t);
    if (status != CL_SUCCESS)
        return status;
    *context = t->clCreateContext(properties, num_devices, devices, NULL, NULL, &status);
    if (status == CL_SUCCESS)
        hold_sub_devices(*context, num_devices, devices);
    return status;
}

cl_int pycl_context_create_from_type(cl_platform_id platform, const cl_context_properties *properties,
                                     cl_device_type type, cl_context *context)
{
    PYCL_DISPATCH_CREATE(context, platform, V10, clCreateContextFromType, properties, type, NULL, NULL);
}

cl_int pycl_context_get_info(cl_context context, cl_context_info param, size_t size, void *value, size_t *size_ret)
{
    PYCL_DISPATCH(context, V10, clGetContextInfo, context, param, size, value, size_ret);
}

cl_int pycl_context_retain(cl_context context)
{
    PYCL_DISPATCH(context, V10, clRetainContext, context);
}

void pycl_context_release(cl_context context)
{
    PYCL_DISPATCH_RELEASE(context, clReleaseContext);
}

/* Below OpenCL 2.0 only the CL_QUEUE_PROPERTIES bitfield has an equivalent. */
static cl_int create_queue_before_2_0(const struct pycl_icd_dispatch *t, cl_context context, cl_device_id device,
                                      const cl_queue_properties *properties, cl_command_queue *queue)
{
    cl_command_queue_properties bits = 0;
    for (const cl_queue_properties *p = properties; p && p[0]; p += 2) {
        if (p[0] != CL_QUEUE_PROPERTIES) {
            pycl_set_unavailable("queue property 0x%llx needs clCreateCommandQueueWithProperties (OpenCL 2.0); "
                                 "the platform reports OpenCL %u.%u",
                                 (unsigned long long)p[0], pycl_table_version(t) / 100, pycl_table_version(t) % 100);
            return PYCL_UNAVAILABLE;
        }
        bits = p[1];
    }
    cl_int status = CL_SUCCESS;
    *queue = t->clCreateCommandQueue(context, device, bits, &status);
    return status;
}

cl_int pycl_queue_create(cl_context context, cl_device_id device, const cl_queue_properties *properties,
                         cl_command_queue *queue)
{
    const struct pycl_icd_dispatch *t = pycl_table_of(context);
    if (!t || !device)
        return CL_INVALID_VALUE;
    unsigned version = pycl_table_version(t);
    if ((version == 0 || version >= V20) && t->clCreateCommandQueueWithProperties) {
        cl_int status = CL_SUCCESS;
        *queue = t->clCreateCommandQueueWithProperties(context, device, properties, &status);
        return status;
    }
    if (!t->clCreateCommandQueue) {
        pycl_set_unavailable("the platform provides no clCreateCommandQueue");
        return PYCL_UNAVAILABLE;
    }
    return create_queue_before_2_0(t, context, device, properties, queue);
}

cl_int pycl_queue_get_info(cl_command_queue queue, cl_command_queue_info param, size_t size, void *value,
                           size_t *size_ret)
{
    PYCL_DISPATCH(queue, V10, clGetCommandQueueInfo, queue, param, size, value, size_ret);
}

cl_int pycl_queue_retain(cl_command_queue queue)
{
    PYCL_DISPATCH(queue, V10, clRetainCommandQueue, queue);
}

void pycl_queue_release(cl_command_queue queue)
{
    PYCL_DISPATCH_RELEASE(queue, clReleaseCommandQueue);
}

cl_int pycl_queue_flush(cl_command_queue queue)
{
    PYCL_DISPATCH(queue, V10, clFlush, queue);
}

cl_int pycl_queue_finish(cl_command_queue queue)
{
    PYCL_DISPATCH(queue, V10, clFinish, queue);
}

cl_int pycl_event_wait(cl_uint num_events, const cl_event *events)
{
    if (!num_events || !events)
        return CL_INVALID_VALUE;
    PYCL_DISPATCH(events[0], V10, clWaitForEvents, num_events, events);
}

cl_int pycl_event_get_info(cl_event event, cl_event_info param, size_t size, void *value, size_t *size_ret)
{
    PYCL_DISPATCH(event, V10, clGetEventInfo, event, param, size, value, size_ret);
}

cl_int pycl_event_get_profiling_info(cl_event event, cl_profiling_info param, size_t size, void *value,
                                     size_t *size_ret)
{
    PYCL_DISPATCH(event, V10, clGetEventProfilingInfo, event, param, size, value, size_ret);
}

cl_int pycl_event_set_callback(cl_event event, cl_int status, void (*callback)(cl_event, cl_int, void *),
                               void *user_data)
{
    PYCL_DISPATCH(event, V11, clSetEventCallback, event, status, callback, user_data);
}

cl_int pycl_event_retain(cl_event event)
{
    PYCL_DISPATCH(event, V10, clRetainEvent, event);
}

void pycl_event_release(cl_event event)
{
    PYCL_DISPATCH_RELEASE(event, clReleaseEvent);
}

cl_int pycl_user_event_create(cl_context context, cl_event *event)
{
    PYCL_DISPATCH_CREATE(event, context, V11, clCreateUserEvent, context);
}

cl_int pycl_user_event_set_status(cl_event event, cl_int status)
{
    PYCL_DISPATCH(event, V11, clSetUserEventStatus, event, status);
}

cl_int pycl_enqueue_marker(cl_command_queue queue, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V12, clEnqueueMarkerWithWaitList, queue, num_events, wait_list, event);
}

cl_int pycl_enqueue_barrier(cl_command_queue queue, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V12, clEnqueueBarrierWithWaitList, queue, num_events, wait_list, event);
}

cl_int pycl_program_create_with_source(cl_context context, const char *source, size_t length, cl_program *program)
{
    PYCL_DISPATCH_CREATE(program, context, V10, clCreateProgramWithSource, context, 1, &source, &length);
}

cl_int pycl_program_create_with_binary(cl_context context, cl_uint num_devices, const cl_device_id *devices,
                                       const size_t *lengths, const unsigned char **binaries, cl_int *binary_status,
                                       cl_program *program)
{
    PYCL_DISPATCH_CREATE(program, context, V10, clCreateProgramWithBinary, context, num_devices, devices, lengths,
                         binaries, binary_status);
}

cl_int pycl_program_build(cl_program program, cl_uint num_devices, const cl_device_id *devices, const char *options)
{
    PYCL_DISPATCH(program, V10, clBuildProgram, program, num_devices, devices, options, NULL, NULL);
}

cl_int pycl_program_compile(cl_program program, cl_uint num_devices, const cl_device_id *devices, const char *options,
                            cl_uint num_headers, const cl_program *headers, const char **header_names)
{
    PYCL_DISPATCH(program, V12, clCompileProgram, program, num_devices, devices, options, num_headers, headers,
                  header_names, NULL, NULL);
}

cl_int pycl_program_link(cl_context context, cl_uint num_devices, const cl_device_id *devices, const char *options,
                         cl_uint num_programs, const cl_program *programs, cl_program *program)
{
    PYCL_DISPATCH_CREATE(program, context, V12, clLinkProgram, context, num_devices, devices, options, num_programs,
                         programs, NULL, NULL);
}

cl_int pycl_program_create_with_built_in_kernels(cl_context context, cl_uint num_devices, const cl_device_id *devices,
                                                 const char *kernel_names, cl_program *program)
{
    PYCL_DISPATCH_CREATE(program, context, V12, clCreateProgramWithBuiltInKernels, context, num_devices, devices,
                         kernel_names);
}

cl_int pycl_platform_unload_compiler(cl_platform_id platform)
{
    PYCL_DISPATCH(platform, V12, clUnloadPlatformCompiler, platform);
}

cl_int pycl_device_create_sub_devices(cl_device_id device, const cl_device_partition_property *properties,
                                      cl_uint num_devices, cl_device_id *devices, cl_uint *num_devices_ret)
{
    PYCL_DISPATCH(device, V12, clCreateSubDevices, device, properties, num_devices, devices, num_devices_ret);
}

cl_int pycl_kernel_clone(cl_kernel kernel, cl_kernel *clone)
{
    PYCL_DISPATCH_CREATE(clone, kernel, V21, clCloneKernel, kernel);
}

cl_int pycl_kernel_get_sub_group_info(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param,
                                      size_t input_size, const void *input, size_t size, void *value, size_t *size_ret)
{
    PYCL_DISPATCH(kernel, V21, clGetKernelSubGroupInfo, kernel, device, param, input_size, input, size, value,
                  size_ret);
}

cl_int pycl_device_host_timer(cl_device_id device, cl_ulong *host_timestamp)
{
    PYCL_DISPATCH(device, V21, clGetHostTimer, device, host_timestamp);
}

cl_int pycl_device_and_host_timer(cl_device_id device, cl_ulong *device_timestamp, cl_ulong *host_timestamp)
{
    PYCL_DISPATCH(device, V21, clGetDeviceAndHostTimer, device, device_timestamp, host_timestamp);
}

cl_int pycl_context_set_default_device_queue(cl_context context, cl_device_id device, cl_command_queue queue)
{
    PYCL_DISPATCH(context, V21, clSetDefaultDeviceCommandQueue, context, device, queue);
}

cl_int pycl_program_get_info(cl_program program, cl_program_info param, size_t size, void *value, size_t *size_ret)
{
    PYCL_DISPATCH(program, V10, clGetProgramInfo, program, param, size, value, size_ret);
}

cl_int pycl_program_get_build_info(cl_program program, cl_device_id device, cl_program_build_info param, size_t size,
                                   void *value, size_t *size_ret)
{
    PYCL_DISPATCH(program, V10, clGetProgramBuildInfo, program, device, param, size, value, size_ret);
}

cl_int pycl_program_retain(cl_program program)
{
    PYCL_DISPATCH(program, V10, clRetainProgram, program);
}

void pycl_program_release(cl_program program)
{
    PYCL_DISPATCH_RELEASE(program, clReleaseProgram);
}

cl_int pycl_kernel_create(cl_program program, const char *name, cl_kernel *kernel)
{
    PYCL_DISPATCH_CREATE(kernel, program, V10, clCreateKernel, program, name);
}

cl_int pycl_kernel_create_all(cl_program program, cl_uint num_entries, cl_kernel *kernels, cl_uint *num_kernels)
{
    PYCL_DISPATCH(program, V10, clCreateKernelsInProgram, program, num_entries, kernels, num_kernels);
}

cl_int pycl_kernel_get_info(cl_kernel kernel, cl_kernel_info param, size_t size, void *value, size_t *size_ret)
{
    PYCL_DISPATCH(kernel, V10, clGetKernelInfo, kernel, param, size, value, size_ret);
}

cl_int pycl_kernel_get_work_group_info(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param,
                                       size_t size, void *value, size_t *size_ret)
{
    PYCL_DISPATCH(kernel, V10, clGetKernelWorkGroupInfo, kernel, device, param, size, value, size_ret);
}

cl_int pycl_kernel_get_arg_info(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param, size_t size, void *value,
                                size_t *size_ret)
{
    PYCL_DISPATCH(kernel, V12, clGetKernelArgInfo, kernel, index, param, size, value, size_ret);
}

cl_int pycl_kernel_set_arg(cl_kernel kernel, cl_uint index, size_t size, const void *value)
{
    PYCL_DISPATCH(kernel, V10, clSetKernelArg, kernel, index, size, value);
}

cl_int pycl_kernel_retain(cl_kernel kernel)
{
    PYCL_DISPATCH(kernel, V10, clRetainKernel, kernel);
}

void pycl_kernel_release(cl_kernel kernel)
{
    PYCL_DISPATCH_RELEASE(kernel, clReleaseKernel);
}

cl_int pycl_enqueue_nd_range_kernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                                    const size_t *global_offset, const size_t *global_size, const size_t *local_size,
                                    cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V10, clEnqueueNDRangeKernel, queue, kernel, work_dim, global_offset, global_size, local_size,
                  num_events, wait_list, event);
}
