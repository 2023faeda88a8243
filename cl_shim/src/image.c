/* Images, image formats, image transfers, samplers and pipes. Images need
 * OpenCL 1.2 here (clCreateImage; the 1.0 clCreateImage2D/3D entry points are
 * not used: every platform pycl supports is 1.2 or newer). In OpenCL 3.0
 * images and pipes are optional: Python checks CL_DEVICE_IMAGE_SUPPORT and
 * CL_DEVICE_PIPE_SUPPORT before calling, since a 3.0 driver answers a missing
 * feature with a generic CL_INVALID_OPERATION. */
#include <stdlib.h>

#include "dispatch.h"

#define V10 PYCL_V(1, 0)
#define V12 PYCL_V(1, 2)
#define V20 PYCL_V(2, 0)
#define V30 PYCL_V(3, 0)

cl_int pycl_image_get_supported_formats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                                        cl_uint num_entries, cl_image_format *formats, cl_uint *num_formats)
{
    PYCL_DISPATCH(context, V10, clGetSupportedImageFormats, context, flags, image_type, num_entries, formats,
                  num_formats);
}

cl_int pycl_image_create(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
                         const cl_image_format *format, const cl_image_desc *desc, void *host_ptr, cl_mem *image)
{
    /* An empty list still takes the 3.0 entry point where the platform has
     * it (so that both paths are exercised), and the 1.2 one below 3.0. */
    if (properties && (properties[0] || pycl_table_version(pycl_table_of(context)) >= V30))
        PYCL_DISPATCH_CREATE(image, context, V30, clCreateImageWithProperties, context, properties, flags, format, desc,
                             host_ptr);
    PYCL_DISPATCH_CREATE(image, context, V12, clCreateImage, context, flags, format, desc, host_ptr);
}

cl_int pycl_image_get_info(cl_mem image, cl_image_info param, size_t size, void *value, size_t *size_ret)
{
    PYCL_DISPATCH(image, V10, clGetImageInfo, image, param, size, value, size_ret);
}

cl_int pycl_enqueue_read_image(cl_command_queue queue, cl_mem image, cl_bool blocking, const size_t *origin,
                               const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr,
                               cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V10, clEnqueueReadImage, queue, image, blocking, origin, region, row_pitch, slice_pitch, ptr,
                  num_events, wait_list, event);
}

cl_int pycl_enqueue_write_image(cl_command_queue queue, cl_mem image, cl_bool blocking, const size_t *origin,
                                const size_t *region, size_t row_pitch, size_t slice_pitch, const void *ptr,
                                cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V10, clEnqueueWriteImage, queue, image, blocking, origin, region, row_pitch, slice_pitch, ptr,
                  num_events, wait_list, event);
}

cl_int pycl_enqueue_copy_image(cl_command_queue queue, cl_mem src, cl_mem dst, const size_t *src_origin,
                               const size_t *dst_origin, const size_t *region, cl_uint num_events,
                               const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V10, clEnqueueCopyImage, queue, src, dst, src_origin, dst_origin, region, num_events,
                  wait_list, event);
}

cl_int pycl_enqueue_copy_image_to_buffer(cl_command_queue queue, cl_mem src_image, cl_mem dst_buffer,
                                         const size_t *src_origin, const size_t *region, size_t dst_offset,
                                         cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V10, clEnqueueCopyImageToBuffer, queue, src_image, dst_buffer, src_origin, region, dst_offset,
                  num_events, wait_list, event);
}

cl_int pycl_enqueue_copy_buffer_to_image(cl_command_queue queue, cl_mem src_buffer, cl_mem dst_image, size_t src_offset,
                                         const size_t *dst_origin, const size_t *region, cl_uint num_events,
                                         const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V10, clEnqueueCopyBufferToImage, queue, src_buffer, dst_image, src_offset, dst_origin, region,
                  num_events, wait_list, event);
}

cl_int pycl_enqueue_fill_image(cl_command_queue queue, cl_mem image, const void *fill_color, const size_t *origin,
                               const size_t *region, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V12, clEnqueueFillImage, queue, image, fill_color, origin, region, num_events, wait_list,
                  event);
}

static cl_int map_image(cl_command_queue queue, cl_mem image, cl_bool blocking, cl_map_flags flags,
                        const size_t *origin, const size_t *region, size_t *row_pitch, size_t *slice_pitch,
                        cl_uint num_events, const cl_event *wait_list, cl_event *event, void **mapped)
{
    PYCL_DISPATCH_CREATE(mapped, queue, V10, clEnqueueMapImage, queue, image, blocking, flags, origin, region,
                         row_pitch, slice_pitch, num_events, wait_list, event);
}

/* As pycl_mapping_map_buffer (memory.c): the mapping retains the queue, the
 * image and the map event, so that pycl_mapping_free can unmap in any order
 * relative to the Python objects' collection. */
cl_int pycl_mapping_map_image(cl_command_queue queue, cl_mem image, cl_bool blocking, cl_map_flags flags,
                              const size_t *origin, const size_t *region, size_t *row_pitch, size_t *slice_pitch,
                              cl_uint num_events, const cl_event *wait_list, cl_event *event,
                              struct pycl_mapping **mapping)
{
    struct pycl_mapping *m = calloc(1, sizeof *m);
    if (!m)
        return CL_OUT_OF_HOST_MEMORY;
    cl_event map_event = NULL;
    *row_pitch = 0;
    *slice_pitch = 0;
    cl_int status = map_image(queue, image, blocking, flags, origin, region, row_pitch, slice_pitch, num_events,
                              wait_list, &map_event, &m->ptr);
    if (status != CL_SUCCESS) {
        free(m);
        return status;
    }
    pycl_mapping_hold(m, queue, image, blocking ? NULL : map_event);
    *event = map_event;
    *mapping = m;
    return CL_SUCCESS;
}

/* Below OpenCL 2.0 the three 1.x sampler parameters have an equivalent. */
static cl_int create_sampler_before_2_0(const struct pycl_icd_dispatch *t, cl_context context,
                                        const cl_sampler_properties *properties, cl_sampler *sampler)
{
    cl_bool normalized = CL_TRUE;
    cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
    cl_filter_mode filter = CL_FILTER_NEAREST;
    for (const cl_sampler_properties *p = properties; p && p[0]; p += 2) {
        switch (p[0]) {
        case CL_SAMPLER_NORMALIZED_COORDS:
            normalized = (cl_bool)p[1];
            break;
        case CL_SAMPLER_ADDRESSING_MODE:
            addressing = (cl_addressing_mode)p[1];
            break;
        case CL_SAMPLER_FILTER_MODE:
            filter = (cl_filter_mode)p[1];
            break;
        default:
            pycl_set_unavailable("sampler property 0x%llx needs clCreateSamplerWithProperties (OpenCL 2.0); "
                                 "the platform reports OpenCL %u.%u",
                                 (unsigned long long)p[0], pycl_table_version(t) / 100, pycl_table_version(t) % 100);
            return PYCL_UNAVAILABLE;
        }
    }
    cl_int status = CL_SUCCESS;
    *sampler = t->clCreateSampler(context, normalized, addressing, filter, &status);
    return status;
}

cl_int pycl_sampler_create(cl_context context, const cl_sampler_properties *properties, cl_sampler *sampler)
{
    const struct pycl_icd_dispatch *t = pycl_table_of(context);
    if (!t)
        return CL_INVALID_CONTEXT;
    unsigned version = pycl_table_version(t);
    if ((version == 0 || version >= V20) && t->clCreateSamplerWithProperties) {
        cl_int status = CL_SUCCESS;
        *sampler = t->clCreateSamplerWithProperties(context, properties, &status);
        return status;
    }
    if (!t->clCreateSampler) {
        pycl_set_unavailable("the platform provides no clCreateSampler");
        return PYCL_UNAVAILABLE;
    }
    return create_sampler_before_2_0(t, context, properties, sampler);
}

cl_int pycl_sampler_get_info(cl_sampler sampler, cl_sampler_info param, size_t size, void *value, size_t *size_ret)
{
    PYCL_DISPATCH(sampler, V10, clGetSamplerInfo, sampler, param, size, value, size_ret);
}

cl_int pycl_sampler_retain(cl_sampler sampler)
{
    PYCL_DISPATCH(sampler, V10, clRetainSampler, sampler);
}

void pycl_sampler_release(cl_sampler sampler)
{
    PYCL_DISPATCH_RELEASE(sampler, clReleaseSampler);
}

cl_int pycl_pipe_create(cl_context context, cl_mem_flags flags, cl_uint packet_size, cl_uint max_packets,
                        const cl_pipe_properties *properties, cl_mem *pipe)
{
    PYCL_DISPATCH_CREATE(pipe, context, V20, clCreatePipe, context, flags, packet_size, max_packets, properties);
}

cl_int pycl_pipe_get_info(cl_mem pipe, cl_pipe_info param, size_t size, void *value, size_t *size_ret)
{
    PYCL_DISPATCH(pipe, V20, clGetPipeInfo, pipe, param, size, value, size_ret);
}
