/* The scalar and short forms of scalars.h: each builds its arrays on the
 * stack and calls the full form, which does the work (and the drivers'
 * workarounds). */
#include "dispatch.h"

cl_int pycl_host_rect(cl_command_queue queue, cl_mem buffer, int reading, cl_bool blocking, size_t buffer_x,
                      size_t buffer_y, size_t buffer_z, size_t host_x, size_t host_y, size_t host_z, size_t region_x,
                      size_t region_y, size_t region_z, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                      size_t host_row_pitch, size_t host_slice_pitch, void *ptr, cl_uint num_events,
                      const cl_event *wait_list, cl_event *event)
{
    const size_t buffer_origin[3] = {buffer_x, buffer_y, buffer_z};
    const size_t host_origin[3] = {host_x, host_y, host_z};
    const size_t region[3] = {region_x, region_y, region_z};
    if (reading)
        return pycl_enqueue_read_buffer_rect(queue, buffer, blocking, buffer_origin, host_origin, region,
                                             buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                                             ptr, num_events, wait_list, event);
    return pycl_enqueue_write_buffer_rect(queue, buffer, blocking, buffer_origin, host_origin, region, buffer_row_pitch,
                                          buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, num_events,
                                          wait_list, event);
}

/* One side of a rect copy: its pitches resolved (0: tight) into *row and
 * *slice, and 1 where they are valid and the box lies in `size` bytes. The
 * region is at least 1 in each dimension. */
static int rect_side_fits(size_t x, size_t y, size_t z, size_t region_x, size_t region_y, size_t region_z, size_t *row,
                          size_t *slice, size_t size)
{
    size_t r = *row ? *row : region_x, tight, s, rows, slices, end;
    if (r < region_x || __builtin_mul_overflow(region_y, r, &tight))
        return 0;
    s = *slice ? *slice : tight;
    if (s < tight || s % r)
        return 0;
    /* The box's end: x + (y + region_y - 1) * r + (z + region_z - 1) * s + region_x. */
    if (__builtin_add_overflow(y, region_y - 1, &rows) || __builtin_mul_overflow(rows, r, &rows) ||
        __builtin_add_overflow(z, region_z - 1, &slices) || __builtin_mul_overflow(slices, s, &slices) ||
        __builtin_add_overflow(x, rows, &end) || __builtin_add_overflow(end, slices, &end) ||
        __builtin_add_overflow(end, region_x, &end) || end > size)
        return 0;
    *row = r;
    *slice = s;
    return 1;
}

cl_int pycl_host_rect_checked(cl_command_queue queue, cl_mem buffer, int reading, cl_bool blocking, size_t buffer_x,
                              size_t buffer_y, size_t buffer_z, size_t host_x, size_t host_y, size_t host_z,
                              size_t region_x, size_t region_y, size_t region_z, size_t buffer_row_pitch,
                              size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch,
                              size_t buffer_size, void *ptr, size_t host_size, size_t stage_from, cl_event *event)
{
    size_t area, volume;
    if (!region_x || !region_y || !region_z)
        return PYCL_RECT_REFUSED;
    if (!rect_side_fits(buffer_x, buffer_y, buffer_z, region_x, region_y, region_z, &buffer_row_pitch,
                        &buffer_slice_pitch, buffer_size) ||
        !rect_side_fits(host_x, host_y, host_z, region_x, region_y, region_z, &host_row_pitch, &host_slice_pitch,
                        host_size))
        return PYCL_RECT_REFUSED;
    if (blocking && (__builtin_mul_overflow(region_x, region_y, &area) ||
                     __builtin_mul_overflow(area, region_z, &volume) || volume >= stage_from))
        return PYCL_RECT_REFUSED;
    cl_int status = pycl_host_rect(queue, buffer, reading, blocking, buffer_x, buffer_y, buffer_z, host_x, host_y,
                                   host_z, region_x, region_y, region_z, buffer_row_pitch, buffer_slice_pitch,
                                   host_row_pitch, host_slice_pitch, ptr, 0, NULL, event);
    /* OpenCL's statuses are 0 or negative: a driver's positive answer must
     * not read as PYCL_RECT_REFUSED, which would send the copy to the
     * general path to be enqueued again. */
    return status > 0 ? CL_OUT_OF_RESOURCES : status;
}

cl_int pycl_image_region(cl_command_queue queue, cl_mem image, int reading, cl_bool blocking, size_t origin_x,
                         size_t origin_y, size_t origin_z, size_t region_x, size_t region_y, size_t region_z,
                         size_t row_pitch, size_t slice_pitch, void *ptr, cl_uint num_events, const cl_event *wait_list,
                         cl_event *event)
{
    const size_t origin[3] = {origin_x, origin_y, origin_z};
    const size_t region[3] = {region_x, region_y, region_z};
    if (reading)
        return pycl_enqueue_read_image(queue, image, blocking, origin, region, row_pitch, slice_pitch, ptr, num_events,
                                       wait_list, event);
    return pycl_enqueue_write_image(queue, image, blocking, origin, region, row_pitch, slice_pitch, ptr, num_events,
                                    wait_list, event);
}

cl_int pycl_buffer_map(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags, size_t offset,
                       size_t size, cl_uint num_events, const cl_event *wait_list, struct pycl_map_result *result)
{
    cl_int status = pycl_mapping_map_buffer(queue, buffer, blocking, flags, offset, size, num_events, wait_list,
                                            &result->event, &result->mapping);
    if (status != CL_SUCCESS)
        return status;
    result->address = (intptr_t)result->mapping->ptr;
    result->row_pitch = 0;
    result->slice_pitch = 0;
    return CL_SUCCESS;
}

cl_int pycl_image_map(cl_command_queue queue, cl_mem image, cl_bool blocking, cl_map_flags flags, size_t origin_x,
                      size_t origin_y, size_t origin_z, size_t region_x, size_t region_y, size_t region_z,
                      cl_uint num_events, const cl_event *wait_list, struct pycl_map_result *result)
{
    const size_t origin[3] = {origin_x, origin_y, origin_z};
    const size_t region[3] = {region_x, region_y, region_z};
    cl_int status =
        pycl_mapping_map_image(queue, image, blocking, flags, origin, region, &result->row_pitch, &result->slice_pitch,
                               num_events, wait_list, &result->event, &result->mapping);
    if (status != CL_SUCCESS)
        return status;
    result->address = (intptr_t)result->mapping->ptr;
    return CL_SUCCESS;
}

cl_int pycl_image_fill(cl_command_queue queue, cl_mem image, const void *fill_color, size_t origin_x, size_t origin_y,
                       size_t origin_z, size_t region_x, size_t region_y, size_t region_z, cl_uint num_events,
                       const cl_event *wait_list, cl_event *event)
{
    const size_t origin[3] = {origin_x, origin_y, origin_z};
    const size_t region[3] = {region_x, region_y, region_z};
    return pycl_enqueue_fill_image(queue, image, fill_color, origin, region, num_events, wait_list, event);
}

cl_int pycl_image_copy(cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_x, size_t src_y, size_t src_z,
                       size_t dst_x, size_t dst_y, size_t dst_z, size_t region_x, size_t region_y, size_t region_z,
                       cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    const size_t src_origin[3] = {src_x, src_y, src_z};
    const size_t dst_origin[3] = {dst_x, dst_y, dst_z};
    const size_t region[3] = {region_x, region_y, region_z};
    return pycl_enqueue_copy_image(queue, src, dst, src_origin, dst_origin, region, num_events, wait_list, event);
}

cl_int pycl_buffer_image_copy(cl_command_queue queue, cl_mem buffer, cl_mem image, int into_image, size_t offset,
                              size_t origin_x, size_t origin_y, size_t origin_z, size_t region_x, size_t region_y,
                              size_t region_z, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    const size_t origin[3] = {origin_x, origin_y, origin_z};
    const size_t region[3] = {region_x, region_y, region_z};
    if (into_image)
        return pycl_enqueue_copy_buffer_to_image(queue, buffer, image, offset, origin, region, num_events, wait_list,
                                                 event);
    return pycl_enqueue_copy_image_to_buffer(queue, image, buffer, origin, region, offset, num_events, wait_list,
                                             event);
}

cl_int pycl_buffer_rect_copy(cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_x, size_t src_y, size_t src_z,
                             size_t dst_x, size_t dst_y, size_t dst_z, size_t region_x, size_t region_y,
                             size_t region_z, size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
                             size_t dst_slice_pitch, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    const size_t src_origin[3] = {src_x, src_y, src_z};
    const size_t dst_origin[3] = {dst_x, dst_y, dst_z};
    const size_t region[3] = {region_x, region_y, region_z};
    return pycl_enqueue_copy_buffer_rect(queue, src, dst, src_origin, dst_origin, region, src_row_pitch,
                                         src_slice_pitch, dst_row_pitch, dst_slice_pitch, num_events, wait_list, event);
}

/* The address-or-status answer of the two creators below. A driver that
 * reports success without a handle, or a positive status (neither seen),
 * must not reach Python as an address. */
static intptr_t address_or_status(cl_int status, cl_mem mem)
{
    if (status == CL_SUCCESS)
        return mem ? (intptr_t)mem : CL_OUT_OF_RESOURCES;
    return status < 0 ? status : CL_OUT_OF_RESOURCES;
}

intptr_t pycl_buffer_new(cl_context context, cl_mem_flags flags, size_t size)
{
    cl_mem buffer = NULL;
    cl_int status = pycl_buffer_create(context, NULL, flags, size, NULL, &buffer);
    return address_or_status(status, buffer);
}

intptr_t pycl_sub_buffer_new(cl_mem buffer, cl_mem_flags flags, size_t origin, size_t size)
{
    cl_mem sub_buffer = NULL;
    cl_int status = pycl_buffer_create_sub(buffer, flags, origin, size, &sub_buffer);
    return address_or_status(status, sub_buffer);
}

cl_int pycl_event_wait_one(cl_event event)
{
    return pycl_event_wait(1, &event);
}

cl_int pycl_event_status(cl_event event)
{
    cl_int status;
    cl_int error = pycl_event_get_info(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    return error != CL_SUCCESS ? error : status;
}
