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

cl_int pycl_buffer_new(cl_context context, cl_mem_flags flags, size_t size, cl_mem *buffer)
{
    return pycl_buffer_create(context, NULL, flags, size, NULL, buffer);
}
