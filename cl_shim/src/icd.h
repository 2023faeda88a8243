/* The ICD dispatch table every OpenCL object starts with: slot order and types
 * transcribed from the Khronos ICD interface (CL/cl_icd.h, 149 slots up to
 * OpenCL 3.0). Slots pycl does not call are untyped placeholders of the same
 * size. A vendor fills the table only up to the version it implements: the
 * shim checks the version (loader.c) before reading a 2.0+ slot. */
#ifndef PYCL_ICD_H
#define PYCL_ICD_H

#include "pycl_shim.h"

struct pycl_icd_dispatch {
    void *clGetPlatformIDs;  /* 0 */
    cl_int (*clGetPlatformInfo)(cl_platform_id, cl_platform_info, size_t, void *, size_t *);  /* 1 */
    cl_int (*clGetDeviceIDs)(cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *);  /* 2 */
    cl_int (*clGetDeviceInfo)(cl_device_id, cl_device_info, size_t, void *, size_t *);  /* 3 */
    cl_context (*clCreateContext)(const cl_context_properties *, cl_uint, const cl_device_id *, void (*)(const char *, const void *, size_t, void *), void *, cl_int *);  /* 4 */
    cl_context (*clCreateContextFromType)(const cl_context_properties *, cl_device_type, void (*)(const char *, const void *, size_t, void *), void *, cl_int *);  /* 5 */
    cl_int (*clRetainContext)(cl_context);  /* 6 */
    cl_int (*clReleaseContext)(cl_context);  /* 7 */
    cl_int (*clGetContextInfo)(cl_context, cl_context_info, size_t, void *, size_t *);  /* 8 */
    cl_command_queue (*clCreateCommandQueue)(cl_context, cl_device_id, cl_command_queue_properties, cl_int *);  /* 9 */
    cl_int (*clRetainCommandQueue)(cl_command_queue);  /* 10 */
    cl_int (*clReleaseCommandQueue)(cl_command_queue);  /* 11 */
    cl_int (*clGetCommandQueueInfo)(cl_command_queue, cl_command_queue_info, size_t, void *, size_t *);  /* 12 */
    void *clSetCommandQueueProperty;  /* 13 */
    cl_mem (*clCreateBuffer)(cl_context, cl_mem_flags, size_t, void *, cl_int *);  /* 14 */
    void *clCreateImage2D;  /* 15 */
    void *clCreateImage3D;  /* 16 */
    cl_int (*clRetainMemObject)(cl_mem);  /* 17 */
    cl_int (*clReleaseMemObject)(cl_mem);  /* 18 */
    cl_int (*clGetSupportedImageFormats)(cl_context, cl_mem_flags, cl_mem_object_type, cl_uint, cl_image_format *, cl_uint *);  /* 19 */
    cl_int (*clGetMemObjectInfo)(cl_mem, cl_mem_info, size_t, void *, size_t *);  /* 20 */
    cl_int (*clGetImageInfo)(cl_mem, cl_image_info, size_t, void *, size_t *);  /* 21 */
    cl_sampler (*clCreateSampler)(cl_context, cl_bool, cl_addressing_mode, cl_filter_mode, cl_int *);  /* 22 */
    cl_int (*clRetainSampler)(cl_sampler);  /* 23 */
    cl_int (*clReleaseSampler)(cl_sampler);  /* 24 */
    cl_int (*clGetSamplerInfo)(cl_sampler, cl_sampler_info, size_t, void *, size_t *);  /* 25 */
    cl_program (*clCreateProgramWithSource)(cl_context, cl_uint, const char **, const size_t *, cl_int *);  /* 26 */
    cl_program (*clCreateProgramWithBinary)(cl_context, cl_uint, const cl_device_id *, const size_t *, const unsigned char **, cl_int *, cl_int *);  /* 27 */
    cl_int (*clRetainProgram)(cl_program);  /* 28 */
    cl_int (*clReleaseProgram)(cl_program);  /* 29 */
    cl_int (*clBuildProgram)(cl_program, cl_uint, const cl_device_id *, const char *, void (*)(cl_program, void *), void *);  /* 30 */
    void *clUnloadCompiler;  /* 31 */
    cl_int (*clGetProgramInfo)(cl_program, cl_program_info, size_t, void *, size_t *);  /* 32 */
    cl_int (*clGetProgramBuildInfo)(cl_program, cl_device_id, cl_program_build_info, size_t, void *, size_t *);  /* 33 */
    cl_kernel (*clCreateKernel)(cl_program, const char *, cl_int *);  /* 34 */
    cl_int (*clCreateKernelsInProgram)(cl_program, cl_uint, cl_kernel *, cl_uint *);  /* 35 */
    cl_int (*clRetainKernel)(cl_kernel);  /* 36 */
    cl_int (*clReleaseKernel)(cl_kernel);  /* 37 */
    cl_int (*clSetKernelArg)(cl_kernel, cl_uint, size_t, const void *);  /* 38 */
    cl_int (*clGetKernelInfo)(cl_kernel, cl_kernel_info, size_t, void *, size_t *);  /* 39 */
    cl_int (*clGetKernelWorkGroupInfo)(cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t, void *, size_t *);  /* 40 */
    cl_int (*clWaitForEvents)(cl_uint, const cl_event *);  /* 41 */
    cl_int (*clGetEventInfo)(cl_event, cl_event_info, size_t, void *, size_t *);  /* 42 */
    cl_int (*clRetainEvent)(cl_event);  /* 43 */
    cl_int (*clReleaseEvent)(cl_event);  /* 44 */
    cl_int (*clGetEventProfilingInfo)(cl_event, cl_profiling_info, size_t, void *, size_t *);  /* 45 */
    cl_int (*clFlush)(cl_command_queue);  /* 46 */
    cl_int (*clFinish)(cl_command_queue);  /* 47 */
    cl_int (*clEnqueueReadBuffer)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *);  /* 48 */
    cl_int (*clEnqueueWriteBuffer)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *);  /* 49 */
    cl_int (*clEnqueueCopyBuffer)(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *);  /* 50 */
    cl_int (*clEnqueueReadImage)(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *);  /* 51 */
    cl_int (*clEnqueueWriteImage)(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *);  /* 52 */
    cl_int (*clEnqueueCopyImage)(cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *);  /* 53 */
    cl_int (*clEnqueueCopyImageToBuffer)(cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *, size_t, cl_uint, const cl_event *, cl_event *);  /* 54 */
    cl_int (*clEnqueueCopyBufferToImage)(cl_command_queue, cl_mem, cl_mem, size_t, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *);  /* 55 */
    void *(*clEnqueueMapBuffer)(cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t, size_t, cl_uint, const cl_event *, cl_event *, cl_int *);  /* 56 */
    void *(*clEnqueueMapImage)(cl_command_queue, cl_mem, cl_bool, cl_map_flags, const size_t *, const size_t *, size_t *, size_t *, cl_uint, const cl_event *, cl_event *, cl_int *);  /* 57 */
    cl_int (*clEnqueueUnmapMemObject)(cl_command_queue, cl_mem, void *, cl_uint, const cl_event *, cl_event *);  /* 58 */
    cl_int (*clEnqueueNDRangeKernel)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *);  /* 59 */
    void *clEnqueueTask;  /* 60 */
    void *clEnqueueNativeKernel;  /* 61 */
    void *clEnqueueMarker;  /* 62 */
    void *clEnqueueWaitForEvents;  /* 63 */
    void *clEnqueueBarrier;  /* 64 */
    void *(*clGetExtensionFunctionAddress)(const char *);  /* 65 */
    void *clCreateFromGLBuffer;  /* 66 */
    void *clCreateFromGLTexture2D;  /* 67 */
    void *clCreateFromGLTexture3D;  /* 68 */
    void *clCreateFromGLRenderbuffer;  /* 69 */
    void *clGetGLObjectInfo;  /* 70 */
    void *clGetGLTextureInfo;  /* 71 */
    void *clEnqueueAcquireGLObjects;  /* 72 */
    void *clEnqueueReleaseGLObjects;  /* 73 */
    void *clGetGLContextInfoKHR;  /* 74 */
    void *clGetDeviceIDsFromD3D10KHR;  /* 75 */
    void *clCreateFromD3D10BufferKHR;  /* 76 */
    void *clCreateFromD3D10Texture2DKHR;  /* 77 */
    void *clCreateFromD3D10Texture3DKHR;  /* 78 */
    void *clEnqueueAcquireD3D10ObjectsKHR;  /* 79 */
    void *clEnqueueReleaseD3D10ObjectsKHR;  /* 80 */
    cl_int (*clSetEventCallback)(cl_event, cl_int, void (*)(cl_event, cl_int, void *), void *);  /* 81 */
    cl_mem (*clCreateSubBuffer)(cl_mem, cl_mem_flags, cl_buffer_create_type, const void *, cl_int *);  /* 82 */
    void *clSetMemObjectDestructorCallback;  /* 83 */
    cl_event (*clCreateUserEvent)(cl_context, cl_int *);  /* 84 */
    cl_int (*clSetUserEventStatus)(cl_event, cl_int);  /* 85 */
    cl_int (*clEnqueueReadBufferRect)(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, const size_t *, size_t, size_t, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *);  /* 86 */
    cl_int (*clEnqueueWriteBufferRect)(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, const size_t *, size_t, size_t, size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *);  /* 87 */
    cl_int (*clEnqueueCopyBufferRect)(cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *, const size_t *, size_t, size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *);  /* 88 */
    void *clCreateSubDevicesEXT;  /* 89 */
    void *clRetainDeviceEXT;  /* 90 */
    void *clReleaseDeviceEXT;  /* 91 */
    void *clCreateEventFromGLsyncKHR;  /* 92 */
    cl_int (*clCreateSubDevices)(cl_device_id, const cl_device_partition_property *, cl_uint, cl_device_id *, cl_uint *);  /* 93 */
    cl_int (*clRetainDevice)(cl_device_id);  /* 94 */
    cl_int (*clReleaseDevice)(cl_device_id);  /* 95 */
    cl_mem (*clCreateImage)(cl_context, cl_mem_flags, const cl_image_format *, const cl_image_desc *, void *, cl_int *);  /* 96 */
    cl_program (*clCreateProgramWithBuiltInKernels)(cl_context, cl_uint, const cl_device_id *, const char *, cl_int *);  /* 97 */
    cl_int (*clCompileProgram)(cl_program, cl_uint, const cl_device_id *, const char *, cl_uint, const cl_program *, const char **, void (*)(cl_program, void *), void *);  /* 98 */
    cl_program (*clLinkProgram)(cl_context, cl_uint, const cl_device_id *, const char *, cl_uint, const cl_program *, void (*)(cl_program, void *), void *, cl_int *);  /* 99 */
    cl_int (*clUnloadPlatformCompiler)(cl_platform_id);  /* 100 */
    cl_int (*clGetKernelArgInfo)(cl_kernel, cl_uint, cl_kernel_arg_info, size_t, void *, size_t *);  /* 101 */
    cl_int (*clEnqueueFillBuffer)(cl_command_queue, cl_mem, const void *, size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *);  /* 102 */
    cl_int (*clEnqueueFillImage)(cl_command_queue, cl_mem, const void *, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *);  /* 103 */
    cl_int (*clEnqueueMigrateMemObjects)(cl_command_queue, cl_uint, const cl_mem *, cl_mem_migration_flags, cl_uint, const cl_event *, cl_event *);  /* 104 */
    cl_int (*clEnqueueMarkerWithWaitList)(cl_command_queue, cl_uint, const cl_event *, cl_event *);  /* 105 */
    cl_int (*clEnqueueBarrierWithWaitList)(cl_command_queue, cl_uint, const cl_event *, cl_event *);  /* 106 */
    void *(*clGetExtensionFunctionAddressForPlatform)(cl_platform_id, const char *);  /* 107 */
    void *clCreateFromGLTexture;  /* 108 */
    void *clGetDeviceIDsFromD3D11KHR;  /* 109 */
    void *clCreateFromD3D11BufferKHR;  /* 110 */
    void *clCreateFromD3D11Texture2DKHR;  /* 111 */
    void *clCreateFromD3D11Texture3DKHR;  /* 112 */
    void *clCreateFromDX9MediaSurfaceKHR;  /* 113 */
    void *clEnqueueAcquireD3D11ObjectsKHR;  /* 114 */
    void *clEnqueueReleaseD3D11ObjectsKHR;  /* 115 */
    void *clGetDeviceIDsFromDX9MediaAdapterKHR;  /* 116 */
    void *clEnqueueAcquireDX9MediaSurfacesKHR;  /* 117 */
    void *clEnqueueReleaseDX9MediaSurfacesKHR;  /* 118 */
    void *clCreateFromEGLImageKHR;  /* 119 */
    void *clEnqueueAcquireEGLObjectsKHR;  /* 120 */
    void *clEnqueueReleaseEGLObjectsKHR;  /* 121 */
    void *clCreateEventFromEGLSyncKHR;  /* 122 */
    cl_command_queue (*clCreateCommandQueueWithProperties)(cl_context, cl_device_id, const cl_queue_properties *, cl_int *);  /* 123 */
    cl_mem (*clCreatePipe)(cl_context, cl_mem_flags, cl_uint, cl_uint, const cl_pipe_properties *, cl_int *);  /* 124 */
    cl_int (*clGetPipeInfo)(cl_mem, cl_pipe_info, size_t, void *, size_t *);  /* 125 */
    void *(*clSVMAlloc)(cl_context, cl_svm_mem_flags, size_t, cl_uint);  /* 126 */
    void (*clSVMFree)(cl_context, void *);  /* 127 */
    cl_int (*clEnqueueSVMFree)(cl_command_queue, cl_uint, void **, void (*)(cl_command_queue, cl_uint, void **, void *), void *, cl_uint, const cl_event *, cl_event *);  /* 128 */
    cl_int (*clEnqueueSVMMemcpy)(cl_command_queue, cl_bool, void *, const void *, size_t, cl_uint, const cl_event *, cl_event *);  /* 129 */
    cl_int (*clEnqueueSVMMemFill)(cl_command_queue, void *, const void *, size_t, size_t, cl_uint, const cl_event *, cl_event *);  /* 130 */
    cl_int (*clEnqueueSVMMap)(cl_command_queue, cl_bool, cl_map_flags, void *, size_t, cl_uint, const cl_event *, cl_event *);  /* 131 */
    cl_int (*clEnqueueSVMUnmap)(cl_command_queue, void *, cl_uint, const cl_event *, cl_event *);  /* 132 */
    cl_sampler (*clCreateSamplerWithProperties)(cl_context, const cl_sampler_properties *, cl_int *);  /* 133 */
    cl_int (*clSetKernelArgSVMPointer)(cl_kernel, cl_uint, const void *);  /* 134 */
    cl_int (*clSetKernelExecInfo)(cl_kernel, cl_kernel_exec_info, size_t, const void *);  /* 135 */
    void *clGetKernelSubGroupInfoKHR;  /* 136 */
    cl_kernel (*clCloneKernel)(cl_kernel, cl_int *);  /* 137 */
    void *clCreateProgramWithIL;  /* 138 */
    cl_int (*clEnqueueSVMMigrateMem)(cl_command_queue, cl_uint, const void **, const size_t *, cl_mem_migration_flags, cl_uint, const cl_event *, cl_event *);  /* 139 */
    cl_int (*clGetDeviceAndHostTimer)(cl_device_id, cl_ulong *, cl_ulong *);  /* 140 */
    cl_int (*clGetHostTimer)(cl_device_id, cl_ulong *);  /* 141 */
    cl_int (*clGetKernelSubGroupInfo)(cl_kernel, cl_device_id, cl_kernel_sub_group_info, size_t, const void *, size_t, void *, size_t *);  /* 142 */
    cl_int (*clSetDefaultDeviceCommandQueue)(cl_context, cl_device_id, cl_command_queue);  /* 143 */
    void *clSetProgramReleaseCallback;  /* 144 */
    void *clSetProgramSpecializationConstant;  /* 145 */
    cl_mem (*clCreateBufferWithProperties)(cl_context, const cl_mem_properties *, cl_mem_flags, size_t, void *, cl_int *);  /* 146 */
    cl_mem (*clCreateImageWithProperties)(cl_context, const cl_mem_properties *, cl_mem_flags, const cl_image_format *, const cl_image_desc *, void *, cl_int *);  /* 147 */
    void *clSetContextDestructorCallback;  /* 148 */
};

/* Every ICD object begins with a pointer to its vendor's table. */
struct pycl_icd_object {
    const struct pycl_icd_dispatch *dispatch;
};

#endif
