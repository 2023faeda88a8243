/* The ICD dispatch table every OpenCL object starts with: slot order and types
 * transcribed from the Khronos ICD interface (CL/cl_icd.h, 149 slots up to
 * OpenCL 3.0). Slots pycl does not call are untyped placeholders of the same
 * size. A vendor fills the table only up to the version it implements: the
 * shim checks the version (loader.c) before reading a 2.0+ slot. */
#ifndef PYCL_ICD_H
#define PYCL_ICD_H

#include "pycl_shim.h"

struct pycl_icd_dispatch {
    /* 0 */ void *clGetPlatformIDs;
    /* 1 */ cl_int (*clGetPlatformInfo)(cl_platform_id, cl_platform_info, size_t, void *, size_t *);
    /* 2 */ cl_int (*clGetDeviceIDs)(cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *);
    /* 3 */ cl_int (*clGetDeviceInfo)(cl_device_id, cl_device_info, size_t, void *, size_t *);
    /* 4 */ cl_context (*clCreateContext)(const cl_context_properties *, cl_uint, const cl_device_id *,
                                          void (*)(const char *, const void *, size_t, void *), void *, cl_int *);
    /* 5 */ cl_context (*clCreateContextFromType)(const cl_context_properties *, cl_device_type,
                                                  void (*)(const char *, const void *, size_t, void *), void *,
                                                  cl_int *);
    /* 6 */ cl_int (*clRetainContext)(cl_context);
    /* 7 */ cl_int (*clReleaseContext)(cl_context);
    /* 8 */ cl_int (*clGetContextInfo)(cl_context, cl_context_info, size_t, void *, size_t *);
    /* 9 */ cl_command_queue (*clCreateCommandQueue)(cl_context, cl_device_id, cl_command_queue_properties, cl_int *);
    /* 10 */ cl_int (*clRetainCommandQueue)(cl_command_queue);
    /* 11 */ cl_int (*clReleaseCommandQueue)(cl_command_queue);
    /* 12 */ cl_int (*clGetCommandQueueInfo)(cl_command_queue, cl_command_queue_info, size_t, void *, size_t *);
    /* 13 */ void *clSetCommandQueueProperty;
    /* 14 */ cl_mem (*clCreateBuffer)(cl_context, cl_mem_flags, size_t, void *, cl_int *);
    /* 15 */ void *clCreateImage2D;
    /* 16 */ void *clCreateImage3D;
    /* 17 */ cl_int (*clRetainMemObject)(cl_mem);
    /* 18 */ cl_int (*clReleaseMemObject)(cl_mem);
    /* 19 */ cl_int (*clGetSupportedImageFormats)(cl_context, cl_mem_flags, cl_mem_object_type, cl_uint,
                                                  cl_image_format *, cl_uint *);
    /* 20 */ cl_int (*clGetMemObjectInfo)(cl_mem, cl_mem_info, size_t, void *, size_t *);
    /* 21 */ cl_int (*clGetImageInfo)(cl_mem, cl_image_info, size_t, void *, size_t *);
    /* 22 */ cl_sampler (*clCreateSampler)(cl_context, cl_bool, cl_addressing_mode, cl_filter_mode, cl_int *);
    /* 23 */ cl_int (*clRetainSampler)(cl_sampler);
    /* 24 */ cl_int (*clReleaseSampler)(cl_sampler);
    /* 25 */ cl_int (*clGetSamplerInfo)(cl_sampler, cl_sampler_info, size_t, void *, size_t *);
    /* 26 */ cl_program (*clCreateProgramWithSource)(cl_context, cl_uint, const char **, const size_t *, cl_int *);
    /* 27 */ cl_program (*clCreateProgramWithBinary)(cl_context, cl_uint, const cl_device_id *, const size_t *,
                                                     const unsigned char **, cl_int *, cl_int *);
    /* 28 */ cl_int (*clRetainProgram)(cl_program);
    /* 29 */ cl_int (*clReleaseProgram)(cl_program);
    /* 30 */ cl_int (*clBuildProgram)(cl_program, cl_uint, const cl_device_id *, const char *,
                                      void (*)(cl_program, void *), void *);
    /* 31 */ void *clUnloadCompiler;
    /* 32 */ cl_int (*clGetProgramInfo)(cl_program, cl_program_info, size_t, void *, size_t *);
    /* 33 */ cl_int (*clGetProgramBuildInfo)(cl_program, cl_device_id, cl_program_build_info, size_t, void *, size_t *);
    /* 34 */ cl_kernel (*clCreateKernel)(cl_program, const char *, cl_int *);
    /* 35 */ cl_int (*clCreateKernelsInProgram)(cl_program, cl_uint, cl_kernel *, cl_uint *);
    /* 36 */ cl_int (*clRetainKernel)(cl_kernel);
    /* 37 */ cl_int (*clReleaseKernel)(cl_kernel);
    /* 38 */ cl_int (*clSetKernelArg)(cl_kernel, cl_uint, size_t, const void *);
    /* 39 */ cl_int (*clGetKernelInfo)(cl_kernel, cl_kernel_info, size_t, void *, size_t *);
    /* 40 */ cl_int (*clGetKernelWorkGroupInfo)(cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t, void *,
                                                size_t *);
    /* 41 */ cl_int (*clWaitForEvents)(cl_uint, const cl_event *);
    /* 42 */ cl_int (*clGetEventInfo)(cl_event, cl_event_info, size_t, void *, size_t *);
    /* 43 */ cl_int (*clRetainEvent)(cl_event);
    /* 44 */ cl_int (*clReleaseEvent)(cl_event);
    /* 45 */ cl_int (*clGetEventProfilingInfo)(cl_event, cl_profiling_info, size_t, void *, size_t *);
    /* 46 */ cl_int (*clFlush)(cl_command_queue);
    /* 47 */ cl_int (*clFinish)(cl_command_queue);
    /* 48 */ cl_int (*clEnqueueReadBuffer)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint,
                                           const cl_event *, cl_event *);
    /* 49 */ cl_int (*clEnqueueWriteBuffer)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *, cl_uint,
                                            const cl_event *, cl_event *);
    /* 50 */ cl_int (*clEnqueueCopyBuffer)(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint,
                                           const cl_event *, cl_event *);
    /* 51 */ cl_int (*clEnqueueReadImage)(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, size_t,
                                          size_t, void *, cl_uint, const cl_event *, cl_event *);
    /* 52 */ cl_int (*clEnqueueWriteImage)(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, size_t,
                                           size_t, const void *, cl_uint, const cl_event *, cl_event *);
    /* 53 */ cl_int (*clEnqueueCopyImage)(cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *,
                                          const size_t *, cl_uint, const cl_event *, cl_event *);
    /* 54 */ cl_int (*clEnqueueCopyImageToBuffer)(cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *,
                                                  size_t, cl_uint, const cl_event *, cl_event *);
    /* 55 */ cl_int (*clEnqueueCopyBufferToImage)(cl_command_queue, cl_mem, cl_mem, size_t, const size_t *,
                                                  const size_t *, cl_uint, const cl_event *, cl_event *);
    /* 56 */ void *(*clEnqueueMapBuffer)(cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t, size_t, cl_uint,
                                         const cl_event *, cl_event *, cl_int *);
    /* 57 */ void *(*clEnqueueMapImage)(cl_command_queue, cl_mem, cl_bool, cl_map_flags, const size_t *, const size_t *,
                                        size_t *, size_t *, cl_uint, const cl_event *, cl_event *, cl_int *);
    /* 58 */ cl_int (*clEnqueueUnmapMemObject)(cl_command_queue, cl_mem, void *, cl_uint, const cl_event *, cl_event *);
    /* 59 */ cl_int (*clEnqueueNDRangeKernel)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                                              const size_t *, cl_uint, const cl_event *, cl_event *);
    /* 60 */ void *clEnqueueTask;
    /* 61 */ void *clEnqueueNativeKernel;
    /* 62 */ void *clEnqueueMarker;
    /* 63 */ void *clEnqueueWaitForEvents;
    /* 64 */ void *clEnqueueBarrier;
    /* 65 */ void *(*clGetExtensionFunctionAddress)(const char *);
    /* 66 */ void *clCreateFromGLBuffer;
    /* 67 */ void *clCreateFromGLTexture2D;
    /* 68 */ void *clCreateFromGLTexture3D;
    /* 69 */ void *clCreateFromGLRenderbuffer;
    /* 70 */ void *clGetGLObjectInfo;
    /* 71 */ void *clGetGLTextureInfo;
    /* 72 */ void *clEnqueueAcquireGLObjects;
    /* 73 */ void *clEnqueueReleaseGLObjects;
    /* 74 */ void *clGetGLContextInfoKHR;
    /* 75 */ void *clGetDeviceIDsFromD3D10KHR;
    /* 76 */ void *clCreateFromD3D10BufferKHR;
    /* 77 */ void *clCreateFromD3D10Texture2DKHR;
    /* 78 */ void *clCreateFromD3D10Texture3DKHR;
    /* 79 */ void *clEnqueueAcquireD3D10ObjectsKHR;
    /* 80 */ void *clEnqueueReleaseD3D10ObjectsKHR;
    /* 81 */ cl_int (*clSetEventCallback)(cl_event, cl_int, void (*)(cl_event, cl_int, void *), void *);
    /* 82 */ cl_mem (*clCreateSubBuffer)(cl_mem, cl_mem_flags, cl_buffer_create_type, const void *, cl_int *);
    /* 83 */ void *clSetMemObjectDestructorCallback;
    /* 84 */ cl_event (*clCreateUserEvent)(cl_context, cl_int *);
    /* 85 */ cl_int (*clSetUserEventStatus)(cl_event, cl_int);
    /* 86 */ cl_int (*clEnqueueReadBufferRect)(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *,
                                               const size_t *, size_t, size_t, size_t, size_t, void *, cl_uint,
                                               const cl_event *, cl_event *);
    /* 87 */ cl_int (*clEnqueueWriteBufferRect)(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *,
                                                const size_t *, size_t, size_t, size_t, size_t, const void *, cl_uint,
                                                const cl_event *, cl_event *);
    /* 88 */ cl_int (*clEnqueueCopyBufferRect)(cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *,
                                               const size_t *, size_t, size_t, size_t, size_t, cl_uint,
                                               const cl_event *, cl_event *);
    /* 89 */ void *clCreateSubDevicesEXT;
    /* 90 */ void *clRetainDeviceEXT;
    /* 91 */ void *clReleaseDeviceEXT;
    /* 92 */ void *clCreateEventFromGLsyncKHR;
    /* 93 */ cl_int (*clCreateSubDevices)(cl_device_id, const cl_device_partition_property *, cl_uint, cl_device_id *,
                                          cl_uint *);
    /* 94 */ cl_int (*clRetainDevice)(cl_device_id);
    /* 95 */ cl_int (*clReleaseDevice)(cl_device_id);
    /* 96 */ cl_mem (*clCreateImage)(cl_context, cl_mem_flags, const cl_image_format *, const cl_image_desc *, void *,
                                     cl_int *);
    /* 97 */ cl_program (*clCreateProgramWithBuiltInKernels)(cl_context, cl_uint, const cl_device_id *, const char *,
                                                             cl_int *);
    /* 98 */ cl_int (*clCompileProgram)(cl_program, cl_uint, const cl_device_id *, const char *, cl_uint,
                                        const cl_program *, const char **, void (*)(cl_program, void *), void *);
    /* 99 */ cl_program (*clLinkProgram)(cl_context, cl_uint, const cl_device_id *, const char *, cl_uint,
                                         const cl_program *, void (*)(cl_program, void *), void *, cl_int *);
    /* 100 */ cl_int (*clUnloadPlatformCompiler)(cl_platform_id);
    /* 101 */ cl_int (*clGetKernelArgInfo)(cl_kernel, cl_uint, cl_kernel_arg_info, size_t, void *, size_t *);
    /* 102 */ cl_int (*clEnqueueFillBuffer)(cl_command_queue, cl_mem, const void *, size_t, size_t, size_t, cl_uint,
                                            const cl_event *, cl_event *);
    /* 103 */ cl_int (*clEnqueueFillImage)(cl_command_queue, cl_mem, const void *, const size_t *, const size_t *,
                                           cl_uint, const cl_event *, cl_event *);
    /* 104 */ cl_int (*clEnqueueMigrateMemObjects)(cl_command_queue, cl_uint, const cl_mem *, cl_mem_migration_flags,
                                                   cl_uint, const cl_event *, cl_event *);
    /* 105 */ cl_int (*clEnqueueMarkerWithWaitList)(cl_command_queue, cl_uint, const cl_event *, cl_event *);
    /* 106 */ cl_int (*clEnqueueBarrierWithWaitList)(cl_command_queue, cl_uint, const cl_event *, cl_event *);
    /* 107 */ void *(*clGetExtensionFunctionAddressForPlatform)(cl_platform_id, const char *);
    /* 108 */ void *clCreateFromGLTexture;
    /* 109 */ void *clGetDeviceIDsFromD3D11KHR;
    /* 110 */ void *clCreateFromD3D11BufferKHR;
    /* 111 */ void *clCreateFromD3D11Texture2DKHR;
    /* 112 */ void *clCreateFromD3D11Texture3DKHR;
    /* 113 */ void *clCreateFromDX9MediaSurfaceKHR;
    /* 114 */ void *clEnqueueAcquireD3D11ObjectsKHR;
    /* 115 */ void *clEnqueueReleaseD3D11ObjectsKHR;
    /* 116 */ void *clGetDeviceIDsFromDX9MediaAdapterKHR;
    /* 117 */ void *clEnqueueAcquireDX9MediaSurfacesKHR;
    /* 118 */ void *clEnqueueReleaseDX9MediaSurfacesKHR;
    /* 119 */ void *clCreateFromEGLImageKHR;
    /* 120 */ void *clEnqueueAcquireEGLObjectsKHR;
    /* 121 */ void *clEnqueueReleaseEGLObjectsKHR;
    /* 122 */ void *clCreateEventFromEGLSyncKHR;
    /* 123 */ cl_command_queue (*clCreateCommandQueueWithProperties)(cl_context, cl_device_id,
                                                                     const cl_queue_properties *, cl_int *);
    /* 124 */ cl_mem (*clCreatePipe)(cl_context, cl_mem_flags, cl_uint, cl_uint, const cl_pipe_properties *, cl_int *);
    /* 125 */ cl_int (*clGetPipeInfo)(cl_mem, cl_pipe_info, size_t, void *, size_t *);
    /* 126 */ void *(*clSVMAlloc)(cl_context, cl_svm_mem_flags, size_t, cl_uint);
    /* 127 */ void (*clSVMFree)(cl_context, void *);
    /* 128 */ cl_int (*clEnqueueSVMFree)(cl_command_queue, cl_uint, void **,
                                         void (*)(cl_command_queue, cl_uint, void **, void *), void *, cl_uint,
                                         const cl_event *, cl_event *);
    /* 129 */ cl_int (*clEnqueueSVMMemcpy)(cl_command_queue, cl_bool, void *, const void *, size_t, cl_uint,
                                           const cl_event *, cl_event *);
    /* 130 */ cl_int (*clEnqueueSVMMemFill)(cl_command_queue, void *, const void *, size_t, size_t, cl_uint,
                                            const cl_event *, cl_event *);
    /* 131 */ cl_int (*clEnqueueSVMMap)(cl_command_queue, cl_bool, cl_map_flags, void *, size_t, cl_uint,
                                        const cl_event *, cl_event *);
    /* 132 */ cl_int (*clEnqueueSVMUnmap)(cl_command_queue, void *, cl_uint, const cl_event *, cl_event *);
    /* 133 */ cl_sampler (*clCreateSamplerWithProperties)(cl_context, const cl_sampler_properties *, cl_int *);
    /* 134 */ cl_int (*clSetKernelArgSVMPointer)(cl_kernel, cl_uint, const void *);
    /* 135 */ cl_int (*clSetKernelExecInfo)(cl_kernel, cl_kernel_exec_info, size_t, const void *);
    /* 136 */ void *clGetKernelSubGroupInfoKHR;
    /* 137 */ cl_kernel (*clCloneKernel)(cl_kernel, cl_int *);
    /* 138 */ void *clCreateProgramWithIL;
    /* 139 */ cl_int (*clEnqueueSVMMigrateMem)(cl_command_queue, cl_uint, const void **, const size_t *,
                                               cl_mem_migration_flags, cl_uint, const cl_event *, cl_event *);
    /* 140 */ cl_int (*clGetDeviceAndHostTimer)(cl_device_id, cl_ulong *, cl_ulong *);
    /* 141 */ cl_int (*clGetHostTimer)(cl_device_id, cl_ulong *);
    /* 142 */ cl_int (*clGetKernelSubGroupInfo)(cl_kernel, cl_device_id, cl_kernel_sub_group_info, size_t, const void *,
                                                size_t, void *, size_t *);
    /* 143 */ cl_int (*clSetDefaultDeviceCommandQueue)(cl_context, cl_device_id, cl_command_queue);
    /* 144 */ void *clSetProgramReleaseCallback;
    /* 145 */ void *clSetProgramSpecializationConstant;
    /* 146 */ cl_mem (*clCreateBufferWithProperties)(cl_context, const cl_mem_properties *, cl_mem_flags, size_t,
                                                     void *, cl_int *);
    /* 147 */ cl_mem (*clCreateImageWithProperties)(cl_context, const cl_mem_properties *, cl_mem_flags,
                                                    const cl_image_format *, const cl_image_desc *, void *, cl_int *);
    /* 148 */ cl_int (*clSetContextDestructorCallback)(cl_context, void (*)(cl_context, void *), void *);
};

/* Every ICD object begins with a pointer to its vendor's table. */
struct pycl_icd_object {
    const struct pycl_icd_dispatch *dispatch;
};

#endif
